// swift-tools-version: 6.1
import PackageDescription

// A path dependency's identity is the name of its folder, which differs between checkouts
// (`syringe`, `main`, `ci-check`, ...). Derive it from this manifest's own location:
// <checkout>/Examples/TodoServer/Package.swift.
let syringePackage: String = {
    let components = #filePath.split(separator: "/", omittingEmptySubsequences: true)
    precondition(components.count >= 4, "unexpected manifest path \(#filePath)")
    return String(components[components.count - 4])
}()

let package = Package(
    name: "TodoServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "TodoServer", targets: ["TodoServer"]),
        .executable(name: "TodoLoad", targets: ["TodoLoad"]),
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The app: its model, database, repository, use cases, request scope and routes.
        .target(
            name: "TodoKit",
            dependencies: [
                .product(name: "Syringe", package: syringePackage),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "TodoServer", dependencies: ["TodoKit"]),
        // The load run: the app and the same routes wired by hand, under the same load.
        .executableTarget(
            name: "TodoLoad",
            dependencies: [
                "TodoKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "TodoKitTests",
            dependencies: [
                "TodoKit",
                .product(name: "SyringeTesting", package: syringePackage),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
