/// A fixed snapshot of CoinCap's `/v2/assets` response (prices made up, not live), in no particular
/// order: the app sorts by market cap and shows the top ten, so Chainlink and TRON are left out.
enum Snapshot {
    static let assets = """
        {
          "data": [
            { "id": "bitcoin", "symbol": "BTC", "name": "Bitcoin",
              "priceUsd": "67012.4512", "marketCapUsd": "1321456789012.50", "changePercent24Hr": "1.8412" },
            { "id": "ethereum", "symbol": "ETH", "name": "Ethereum",
              "priceUsd": "3456.7834", "marketCapUsd": "415234567890.12", "changePercent24Hr": "-0.7311" },
            { "id": "chainlink", "symbol": "LINK", "name": "Chainlink",
              "priceUsd": "14.5623", "marketCapUsd": "8543210987.65", "changePercent24Hr": "-0.8804" },
            { "id": "tether", "symbol": "USDT", "name": "Tether",
              "priceUsd": "1.0002", "marketCapUsd": "112345678901.23", "changePercent24Hr": "0.0103" },
            { "id": "binance-coin", "symbol": "BNB", "name": "BNB",
              "priceUsd": "578.9107", "marketCapUsd": "85432109876.54", "changePercent24Hr": "2.1533" },
            { "id": "solana", "symbol": "SOL", "name": "Solana",
              "priceUsd": "168.3398", "marketCapUsd": "77654321098.76", "changePercent24Hr": "5.4217" },
            { "id": "avalanche", "symbol": "AVAX", "name": "Avalanche",
              "priceUsd": "36.7781", "marketCapUsd": "14456789012.34", "changePercent24Hr": "4.1109" },
            { "id": "usd-coin", "symbol": "USDC", "name": "USDC",
              "priceUsd": "0.9998", "marketCapUsd": "33456789012.34", "changePercent24Hr": "-0.0201" },
            { "id": "xrp", "symbol": "XRP", "name": "XRP",
              "priceUsd": "0.5234", "marketCapUsd": "28765432109.87", "changePercent24Hr": "-1.3702" },
            { "id": "tron", "symbol": "TRX", "name": "TRON",
              "priceUsd": "0.1234", "marketCapUsd": "10812345678.90", "changePercent24Hr": "0.5698" },
            { "id": "dogecoin", "symbol": "DOGE", "name": "Dogecoin",
              "priceUsd": "0.1612", "marketCapUsd": "23345678901.23", "changePercent24Hr": "3.0841" },
            { "id": "cardano", "symbol": "ADA", "name": "Cardano",
              "priceUsd": "0.4521", "marketCapUsd": "16123456789.01", "changePercent24Hr": "-2.4596" }
          ],
          "timestamp": 1718000000000
        }
        """
}
