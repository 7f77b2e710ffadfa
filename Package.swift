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
        .target(name: "CrypticApp", dependencies: ["Syringe"], path: "Examples/Cryptic/Sources/CrypticApp"),
        .executableTarget(
            name: "Cryptic", dependencies: ["CrypticApp", "Syringe"], path: "Examples/Cryptic/Sources/Cryptic"),
        .testTarget(
            name: "CrypticTests", dependencies: ["CrypticApp", "Syringe", "SyringeTesting"],
            path: "Examples/Cryptic/Tests"),
        .target(
            name: "RegistrationFlowApp", dependencies: ["Syringe"],
            path: "Examples/RegistrationFlow/Sources/RegistrationFlowApp"),
        .executableTarget(
            name: "RegistrationFlow", dependencies: ["RegistrationFlowApp"],
            path: "Examples/RegistrationFlow/Sources/RegistrationFlow"),
        .testTarget(
            name: "RegistrationFlowTests", dependencies: ["RegistrationFlowApp", "Syringe", "SyringeTesting"],
            path: "Examples/RegistrationFlow/Tests"),
        .target(name: "BakeryApp", dependencies: ["Syringe"], path: "Examples/Bakery/Sources/BakeryApp"),
        .executableTarget(name: "Bakery", dependencies: ["BakeryApp"], path: "Examples/Bakery/Sources/Bakery"),
        .testTarget(
            name: "BakeryTests", dependencies: ["BakeryApp", "Syringe", "SyringeTesting"],
            path: "Examples/Bakery/Tests"),
    ],
    swiftLanguageModes: [.v6]
)
