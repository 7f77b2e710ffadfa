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
        record(verify(skipping: skipping, providing: standIns, isolation: isolation), at: sourceLocation)
    }

    /// ``expectValid(skipping:providing:isolation:sourceLocation:)`` with
    /// `Resolver.verifyAsync(skipping:providing:isolation:)`, which also builds the async
    /// registrations.
    ///
    /// ```swift
    /// @Test func containerIsSound() async {
    ///     await Resolver.main.expectValidAsync()
    /// }
    /// ```
    @discardableResult
    public func expectValidAsync(
        skipping: [any Any.Type] = [], providing standIns: ((Resolver) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> VerificationReport {
        let report = await verifyAsync(skipping: skipping, providing: standIns, isolation: isolation)
        return record(report, at: sourceLocation)
    }

    private func record(_ report: VerificationReport, at sourceLocation: SourceLocation) -> VerificationReport {
        if !report.isValid {
            Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
        } else if !report.warnings.isEmpty {
            Issue.record(Comment(rawValue: report.description), severity: .warning, sourceLocation: sourceLocation)
        }
        return report
    }
}
