import Syringe
import Testing

extension Resolver {
    /// Verifies the container (`Resolver.verify(skipping:providing:isolation:)`) and records
    /// the report in the test: a failing issue with every failure when it is not valid, a
    /// warning-level issue when it is valid but has warnings. Returns the report.
    ///
    /// ```swift
    /// @Test func containerIsSound() {
    ///     Resolver.main.expectValid()
    /// }
    /// ```
    @discardableResult
    public func expectValid(
        skipping: [any Any.Type] = [], providing standIns: ((Resolver) -> Void)? = nil,
        isolation: (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
    ) -> VerificationReport {
        let report = verify(skipping: skipping, providing: standIns, isolation: isolation)
        if !report.isValid {
            Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
        } else if !report.warnings.isEmpty {
            Issue.record(Comment(rawValue: report.description), severity: .warning, sourceLocation: sourceLocation)
        }
        return report
    }
}
