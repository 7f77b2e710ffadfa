import Foundation
import Syringe

/// Fetches and decodes the asset list.
public final class AssetService {
    @Inject private var networkService: NetworkServiceProtocol
    @Inject private var urlComponentsService: URLComponentsService

    public init() {}

    public func fetchAssets() throws(AppError) -> AssetList {
        let data = try networkService.fetch(from: urlComponentsService.assetsURL)
        do {
            return try JSONDecoder().decode(AssetList.self, from: data)
        } catch {
            throw AppError(errorDescription: "Could not read the asset list: \(error)")
        }
    }
}
