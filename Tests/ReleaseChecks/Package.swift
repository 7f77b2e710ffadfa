// swift-tools-version: 6.1
import PackageDescription

// Runs the deinitializer, stack-depth, cross-thread-wait, verification-run, async-factory, shared
// async build, Singleton-marker and Task.immediate binding tests against the library built in
// release mode, where the optimizer shortens lifetimes and stack
// frames differ. A package of its own because the main test target cannot be built in release
// mode with Swift 6.3.1 (the compiler crashes in LLVM's function-attribute inference on some of
// its files). The test sources are links to the main test target's files.
//
// A path dependency's identity is the name of its folder, which differs between checkouts:
// derive it from this manifest's location, <checkout>/Tests/ReleaseChecks/Package.swift.
let syringePackage: String = {
    let components = #filePath.split(separator: "/", omittingEmptySubsequences: true)
    precondition(components.count >= 4, "unexpected manifest path \(#filePath)")
    return String(components[components.count - 4])
}()

let package = Package(
    name: "SyringeReleaseChecks",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    dependencies: [
        .package(path: "../..")
    ],
    targets: [
        .testTarget(
            name: "EngineDeinitTests",
            dependencies: [
                .product(name: "Syringe", package: syringePackage),
                .product(name: "SyringeTesting", package: syringePackage),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
