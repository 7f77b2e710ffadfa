// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Syringe",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Syringe", targets: ["Syringe"]),
        .library(name: "SyringeTesting", targets: ["SyringeTesting"]),
    ],
    targets: [
        .target(name: "Syringe"),
        .target(name: "SyringeTesting", dependencies: ["Syringe"]),
        .testTarget(name: "SyringeTests", dependencies: ["Syringe", "SyringeTesting"]),
        // MARK: Examples (each: a library with the app, a small executable, and its tests)
    ],
    swiftLanguageModes: [.v6]
)
