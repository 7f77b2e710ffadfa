import CrypticApp
import Foundation

/// Answers every request with `result`, and remembers the URLs it was asked for.
final class MockNetworkService: NetworkServiceProtocol {
    var result: Result<Data, AppError>?
    private(set) var requestedURLs: [URL] = []

    func fetch(from url: URL) throws(AppError) -> Data {
        requestedURLs.append(url)
        guard let result else {
            fatalError("Result is nil")
        }
        return try result.get()
    }
}

func mockAsset() -> Asset {
    Asset(
        id: "bitcoin", symbol: "BTC", name: "Bitcoin", priceUsd: "67012.45", marketCapUsd: "1321456789012.50",
        changePercent24Hr: "1.84")
}

func assetList() -> Data {
    try! JSONEncoder().encode(AssetList(data: [mockAsset()], timestamp: 1_718_000_000_000))
}

let assetsURL = URL(string: "https://api.coincap.io/v2/assets")!
