import Foundation

/// Fetches raw data. `AssetService` depends on this abstraction, so tests can hand it a mock.
public protocol NetworkServiceProtocol {
    func fetch(from url: URL) throws(AppError) -> Data
}

/// The app's network service. So that the example runs offline and prints the same table
/// every time, it answers the assets request from an embedded snapshot instead of HTTP.
public final class NetworkService: NetworkServiceProtocol {
    public init() {}

    public func fetch(from url: URL) throws(AppError) -> Data {
        guard url.path == "/v2/assets" else {
            throw AppError(errorDescription: "No snapshot for \(url.absoluteString)")
        }
        return Data(Snapshot.assets.utf8)
    }
}
