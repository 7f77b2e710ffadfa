// swift-tools-version: 6.1
import PackageDescription

// A path dependency's identity is the name of its folder, which differs between checkouts
// (`syringe`, `main`, `ci-check`, ...). Derive it from this manifest's own location:
// <checkout>/Benchmarks/Package.swift.
let syringePackage: String = {
    let components = #filePath.split(separator: "/", omittingEmptySubsequences: true)
    precondition(components.count >= 3, "unexpected manifest path \(#filePath)")
    return String(components[components.count - 3])
}()

let package = Package(
    name: "SyringeBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .executable(name: "syringe-bench", targets: ["SyringeBench"])
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // Counts heap allocations by defining malloc & co. in the executable (Linux/glibc).
        .target(name: "AllocationCounter"),
        .executableTarget(
            name: "SyringeBench",
            dependencies: [
                "AllocationCounter",
                .product(name: "Syringe", package: syringePackage),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
