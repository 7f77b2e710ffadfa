import Foundation

/// Builds the URLs of the CoinCap API.
public final class URLComponentsService {
    public init() {}

    public var assetsURL: URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "api.coincap.io"
        components.path = "/v2/assets"
        return components.url!
    }
}
