import Syringe
import Testing

extension Resolver {
    /// Records a Swift Testing issue with the report's text when the container does not verify,
    /// and returns the report.
    ///
    /// ```swift
    /// @Test func containerIsSound() {
    ///     Resolver.main.expectValid()
    /// }
    /// ```
    @discardableResult
    public func expectValid(sourceLocation: SourceLocation = #_sourceLocation) -> VerificationReport {
        let report = verify()
        if !report.isValid {
            Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
        }
        return report
    }
}
