import CrypticApp
import Foundation
import Syringe
import SyringeTesting
import Testing

// The tutorial's unit tests: AssetService against a MockNetworkService registered in the
// test's own container, over the app's registrations.
struct AssetServiceTests {
    @Test(.isolatedResolver) func fetchAssetsSuccessfully() throws {
        Resolver.install(CrypticServices())
        Resolver.register(lifetime: .singleton) { MockNetworkService() }.implements(NetworkServiceProtocol.self)
        let networkService: MockNetworkService = Resolver.resolve()
        networkService.result = .success(assetList())
        let sut: AssetService = Resolver.resolve()

        let assets = try sut.fetchAssets()

        #expect(assets.data == [mockAsset()])
        #expect(networkService.requestedURLs == [assetsURL])
    }

    @Test(.isolatedResolver) func fetchAssetsFailure() {
        Resolver.install(CrypticServices())
        Resolver.register(lifetime: .singleton) { MockNetworkService() }.implements(NetworkServiceProtocol.self)
        let networkService: MockNetworkService = Resolver.resolve()
        let networkError = AppError(errorDescription: "Something went wrong!")
        networkService.result = .failure(networkError)
        let sut: AssetService = Resolver.resolve()

        #expect(throws: networkError) { try sut.fetchAssets() }
    }

    @Test(.isolatedResolver) func unreadableResponseIsAnAppError() {
        Resolver.install(CrypticServices())
        Resolver.register(lifetime: .singleton) { MockNetworkService() }.implements(NetworkServiceProtocol.self)
        let networkService: MockNetworkService = Resolver.resolve()
        networkService.result = .success(Data("<html>".utf8))
        let sut: AssetService = Resolver.resolve()

        let error = #expect(throws: AppError.self) { try sut.fetchAssets() }
        #expect(error?.errorDescription.hasPrefix("Could not read the asset list") == true)
    }

    @Test(.isolatedResolver) func viewModelShowsTheLargestAssetsFirst() throws {
        Resolver.install(CrypticServices())
        let viewModel: AssetListViewModel = Resolver.resolve()

        let assets = try viewModel.topAssets()

        #expect(assets.map(\.symbol) == ["BTC", "ETH", "USDT", "BNB", "SOL", "USDC", "XRP", "DOGE", "ADA", "AVAX"])
    }
}
