import CrypticApp
import Foundation
import Syringe
import SyringeTesting
import XCTest

// The same tests in XCTest, each inside `Resolver.withTestContainer`.
final class AssetServiceXCTests: XCTestCase {
    func testFetchAssetsSuccessfully() throws {
        try Resolver.withTestContainer {
            Resolver.install(CrypticServices())
            Resolver.register(lifetime: .singleton) { MockNetworkService() }.implements(NetworkServiceProtocol.self)
            let networkService: MockNetworkService = Resolver.resolve()
            networkService.result = .success(assetList())
            let sut: AssetService = Resolver.resolve()

            let assets = try sut.fetchAssets()

            XCTAssertEqual(assets.data.count, 1)
            XCTAssertEqual(assets.data.first, mockAsset())
        }
    }

    func testFetchAssetsFailure() throws {
        try Resolver.withTestContainer {
            Resolver.install(CrypticServices())
            Resolver.register(lifetime: .singleton) { MockNetworkService() }.implements(NetworkServiceProtocol.self)
            let networkService: MockNetworkService = Resolver.resolve()
            let networkError = AppError(errorDescription: "Something went wrong!")
            networkService.result = .failure(networkError)
            let sut: AssetService = Resolver.resolve()

            XCTAssertThrowsError(try sut.fetchAssets()) { error in
                XCTAssertEqual(error as? AppError, networkError)
            }
        }
    }
}
