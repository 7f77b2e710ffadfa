import CrypticApp
import Syringe
import SyringeTesting
import Testing

// The program end to end, in-process: what `swift run Cryptic …` prints and returns.
struct CrypticProgramTests {
    @Test(.isolatedResolver) func printsTheTopTenByMarketCap() {
        Resolver.install(CrypticServices())

        let result = run(arguments: [])

        #expect(
            result.standardOutput == """
                Top 10 crypto assets by market cap (snapshot, not live prices)

                 #  Symbol  Name            Price  Market cap     24h
                 1  BTC     Bitcoin    $67,012.45      $1.32T  +1.84%
                 2  ETH     Ethereum    $3,456.78    $415.23B  -0.73%
                 3  USDT    Tether          $1.00    $112.35B  +0.01%
                 4  BNB     BNB           $578.91     $85.43B  +2.15%
                 5  SOL     Solana        $168.34     $77.65B  +5.42%
                 6  USDC    USDC          $0.9998     $33.46B  -0.02%
                 7  XRP     XRP           $0.5234     $28.77B  -1.37%
                 8  DOGE    Dogecoin      $0.1612     $23.35B  +3.08%
                 9  ADA     Cardano       $0.4521     $16.12B  -2.46%
                10  AVAX    Avalanche      $36.78     $14.46B  +4.11%

                """)
        #expect(result.standardError == "")
        #expect(result.status == 0)
    }

    // A container of its own (no parent), so the graph shows only the app's registrations.
    @Test func graphPrintsMermaid() {
        let result = Resolver.withContainer(Resolver()) {
            Resolver.install(CrypticServices())
            return run(arguments: ["--graph"])
        }

        #expect(
            result.standardOutput == """
                graph LR
                    n0["NetworkService<br/>(transient)"]
                    n1["NetworkServiceProtocol<br/>(transient)"]
                    n2["URLComponentsService<br/>(transient)"]
                    n3["AssetService<br/>(transient)"]
                    n4["AssetListViewModel<br/>(transient)"]
                    n1 --> n0
                    n3 --> n1
                    n3 --> n2
                    n4 --> n3

                """)
        #expect(result.status == 0)
    }

    @Test func graphPrintsDot() {
        let result = Resolver.withContainer(Resolver()) {
            Resolver.install(CrypticServices())
            return run(arguments: ["--graph", "dot"])
        }

        #expect(result.standardOutput.hasPrefix("digraph Dependencies {\n"))
        #expect(result.standardOutput.contains("    n4 -> n3;\n"))
        #expect(result.status == 0)
    }

    @Test(arguments: [["--help"], ["-h"]]) func helpPrintsUsage(arguments: [String]) {
        let result = run(arguments: arguments)

        #expect(result.standardOutput == usage)
        #expect(result.standardError == "")
        #expect(result.status == 0)
    }

    @Test(arguments: [["--bogus"], ["--graph", "svg"], ["--graph", "dot", "extra"], ["--help", "me"]])
    func badArgumentsPrintUsageToStandardError(arguments: [String]) {
        let result = run(arguments: arguments)

        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("error: "))
        #expect(result.standardError.hasSuffix(usage))
        #expect(result.status == 64)
    }
}
