/// One crypto asset, as the CoinCap API (`/v2/assets`) describes it. The API sends numbers as strings.
public struct Asset: Codable, Equatable, Sendable {
    public var id: String
    public var symbol: String
    public var name: String
    public var priceUsd: String
    public var marketCapUsd: String
    public var changePercent24Hr: String

    public init(
        id: String, symbol: String, name: String, priceUsd: String, marketCapUsd: String, changePercent24Hr: String
    ) {
        self.id = id
        self.symbol = symbol
        self.name = name
        self.priceUsd = priceUsd
        self.marketCapUsd = marketCapUsd
        self.changePercent24Hr = changePercent24Hr
    }

    public var price: Double { Double(priceUsd) ?? 0 }
    public var marketCap: Double { Double(marketCapUsd) ?? 0 }
    public var changePercent: Double { Double(changePercent24Hr) ?? 0 }
}

/// The body of a `/v2/assets` response.
public struct AssetList: Codable, Equatable, Sendable {
    public var data: [Asset]
    public var timestamp: Int

    public init(data: [Asset], timestamp: Int) {
        self.data = data
        self.timestamp = timestamp
    }
}

/// What can go wrong while fetching assets.
public struct AppError: Error, Equatable, CustomStringConvertible {
    public var errorDescription: String

    public init(errorDescription: String) {
        self.errorDescription = errorDescription
    }

    public var description: String { errorDescription }
}
