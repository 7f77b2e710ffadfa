/// The outcome of ``Resolver/verify()``: every failure found at once, and what was skipped.
///
/// ```swift
/// let report = Resolver.main.verify()
/// if !report.isValid { print(report) }
/// ```
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// Every registration that could not be built, with its path and the fix.
    public let failures: [ResolutionError]
    /// Registrations that were not built because they need runtime arguments.
    public let skipped: [String]
    /// Registrations that were built successfully.
    public let verified: [String]
    /// How many registrations failed (one may report several failures).
    let failedRegistrationCount: Int

    /// Whether every registration that needs no runtime argument could be built.
    public var isValid: Bool { failures.isEmpty }

    public var description: String {
        var lines: [String] = []
        if isValid {
            lines.append("Syringe: all \(verified.count) registrations resolve")
        } else {
            lines.append(
                "Syringe: \(failedRegistrationCount) of \(failedRegistrationCount + verified.count) registrations "
                    + "cannot be resolved")
            for failure in failures {
                lines.append("")
                lines.append(failure.description)
            }
        }
        if !skipped.isEmpty {
            if !isValid { lines.append("") }
            lines.append("skipped (they need runtime arguments): \(skipped.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}

extension Resolver {
    /// Builds every registration that needs no runtime argument, in a throw-away child
    /// container, and reports every failure at once: missing registrations with their paths,
    /// cycles, argument mismatches.
    ///
    /// ```swift
    /// @Test func containerIsSound() {
    ///     let report = Resolver.main.verify()
    ///     #expect(report.isValid, "\(report)")
    /// }
    /// ```
    ///
    /// The container's own singletons are left untouched (the child keeps what it builds).
    /// Dependencies of `autoregister`ed types are checked without running anything; a factory
    /// that resolves with `try $0.tryResolve()` reports nested failures too, while one that
    /// uses plain `$0.resolve()` stops the program at its first missing dependency, as
    /// `resolve()` does.
    public func verify() -> VerificationReport {
        bootstrapIfPending()
        let sandbox = Resolver(isolatedChildOf: self, name: "verification of \(name)")
        let bindings = registryLock.withReadLock(ThreadState.current.stripe) { allBindingsLocked() }
        var failures: [ResolutionError] = []
        var seen: Set<String> = []
        var skipped: [String] = []
        var verified: [String] = []

        var failedRegistrationCount = 0

        func report(_ error: ResolutionError) {
            if seen.insert(error.description).inserted { failures.append(error) }
        }

        for binding in bindings {
            let provider = binding.provider
            if provider.needsArguments {
                skipped.append(binding.key.description)
                continue
            }
            let missing = (provider.declaredDependencies ?? []).filter { !sandbox.isRegisteredKey($0) }
            for dependency in missing {
                // Asked for where the `autoregister` call is, as when it resolves.
                report(sandbox.missingError(for: dependency, site: provider.site, path: [binding.key]))
            }
            guard missing.isEmpty else {
                failedRegistrationCount += 1
                continue
            }
            do {
                _ = try binding.resolveErased(in: sandbox)
                verified.append(binding.key.description)
            } catch  where error.yieldsNothing(for: binding.key, atDepth: 0) {
                // A registration that may legitimately yield no value.
                verified.append(binding.key.description)
            } catch {
                failedRegistrationCount += 1
                report(error)
            }
        }
        return VerificationReport(
            failures: failures, skipped: skipped, verified: verified, failedRegistrationCount: failedRegistrationCount)
    }

    func isRegisteredKey(_ key: Key) -> Bool {
        registryLock.withReadLock(ThreadState.current.stripe) {
            findLocked(key) != nil || (key.arguments == nil && (key.type as? any OptionalResolvable.Type) != nil)
        }
    }
}
