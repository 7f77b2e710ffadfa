import Syringe

/// What the asset list shows: the largest assets by market cap, as a table.
public final class AssetListViewModel {
    @Inject private var assetService: AssetService

    public init() {}

    /// The `count` largest assets by market cap, largest first.
    public func topAssets(count: Int = 10) throws(AppError) -> [Asset] {
        let assets = try assetService.fetchAssets().data
        return Array(assets.sorted { $0.marketCap > $1.marketCap }.prefix(count))
    }

    /// The top ten as an aligned table: rank, symbol, name, price, market cap, 24h change.
    public func table() throws(AppError) -> String {
        let assets = try topAssets()
        let rows = assets.enumerated().map { index, asset in
            [
                "\(index + 1)", asset.symbol, asset.name, dollars(asset.price), abbreviatedDollars(asset.marketCap),
                percentChange(asset.changePercent),
            ]
        }
        return Table(
            header: ["#", "Symbol", "Name", "Price", "Market cap", "24h"],
            rightAligned: [0, 3, 4, 5],
            rows: rows
        ).description
    }
}
