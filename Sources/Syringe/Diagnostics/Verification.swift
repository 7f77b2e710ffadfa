/// The outcome of ``Resolver/verify(skipping:providing:isolation:)``: every failure found in
/// one run, what could not be checked and why, and warnings that do not make it invalid.
///
/// ```swift
/// let report = Resolver.main.verify()
/// if !report.isValid { print(report) }
/// ```
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// Every failure, each with its resolution path, the container and the fix.
    public let failures: [ResolutionError]
    /// Things that may be mistakes but do not stop a resolution: a key registered twice, a
    /// `.weak` registration of a value type, an `Optional` registration of a type that is asked
    /// for as itself.
    public let warnings: [String]
    /// Registrations that were not built, in order (the description gives each reason: runtime
    /// arguments, skipped as asked, main-actor registrations verified from code that is not on
    /// the main actor).
    public var skipped: [String] { skippedByReason.flatMap(\.keys) }
    /// Registrations that were built successfully.
    public let verified: [String]
    /// How many registrations the container and its ancestors have, `.implements` aliases apart.
    public let registrationCount: Int
    /// How many keys `.implements(…)` added.
    public let aliasCount: Int
    /// How many registrations failed (one may report several failures).
    public let failedRegistrationCount: Int
    /// The context the registrations were built in (the container's ``Resolver/context-swift.property``).
    public let context: Resolver.Context
    /// What each registration with context factories (`.onTest`, …) was built with, in
    /// registration order: `API: its test factory`, `Store: its own factory`.
    public let contextFactories: [String]
    /// The skipped registrations by reason, in order.
    let skippedByReason: [(reason: String, keys: [String])]

    /// Whether something is registered and every registration that could be built resolves.
    /// A container with nothing registered is not valid: it is not the one the app uses.
    public var isValid: Bool { failures.isEmpty && registrationCount > 0 }

    public var description: String {
        var lines: [String] = []
        let counted = "\(count(registrationCount, "registration")), \(count(aliasCount, "alias", "aliases"))"
        if registrationCount == 0 {
            lines.append("Syringe: nothing is registered, so nothing was verified")
            lines.append("  register the app's services first (or verify the container that has them)")
        } else if failures.isEmpty {
            let all = verified.count == 1 ? "the 1 key resolves" : "all \(verified.count) keys resolve"
            lines.append("Syringe: \(all) (\(counted))")
        } else {
            lines.append(
                "Syringe: \(failedRegistrationCount) of \(count(failedRegistrationCount + verified.count, "key")) "
                    + "cannot be resolved (\(counted))")
            for failure in failures {
                lines.append("")
                lines.append(failure.description)
            }
        }
        if !warnings.isEmpty {
            lines.append("")
            lines.append("warnings:")
            lines += warnings.map { "- " + $0 }
        }
        if !contextFactories.isEmpty {
            lines.append("")
            lines.append("context: \(context); built with context factories:")
            lines += contextFactories.map { "- " + $0 }
        }
        if !skippedByReason.isEmpty {
            lines.append("")
            for (reason, keys) in skippedByReason {
                lines.append("skipped (\(reason)): \(keys.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension Resolver {
    /// Builds every registration that needs no runtime argument, in a throw-away test container,
    /// and reports every failure at once, without stopping the program.
    ///
    /// ```swift
    /// @Test func containerIsSound() {
    ///     let report = Resolver.main.verify()
    ///     #expect(report.isValid, "\(report)")
    /// }
    /// ```
    ///
    /// Everything a registration's build asks for is checked: plain `$0.resolve()` calls in
    /// factories, default-argument `Resolver.resolve()` calls, `@Inject`, `@WeakInject` and
    /// `@OptionalInject` properties of the objects built, and what `@LazyInject` properties
    /// will ask for (checked without reading them). A failure that would stop the program is
    /// reported with its path, and the next registration is built. The container's own
    /// singletons and caches are left untouched, and later resolutions behave as if `verify()`
    /// had never run.
    ///
    /// - Parameters:
    ///   - skipping: Types whose registrations are not built (values only known at run time,
    ///     such as an `ErrorViewModel` registered when an error happens). Their `.implements`
    ///     aliases are skipped too; a registration that needs one still fails.
    ///   - standIns: Registers stand-ins in the throw-away container before anything is
    ///     built: `verify(providing: { $0.register { TestUser() } })`.
    ///   - isolation: The caller's isolation: called from main-actor code, main-actor-bound
    ///     registrations are built too (on workers that hold the main actor while the caller
    ///     waits); from elsewhere they are listed as skipped.
    public func verify(
        skipping: [any Any.Type] = [], providing standIns: ((Resolver) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> VerificationReport {
        let sandbox = verificationSandbox(providing: standIns)
        let plan = VerificationPlan(of: self, in: sandbox, skipping: skipping, buildingAsync: false)
        return verify(plan, in: sandbox, asyncOutcomes: [:], lendingMainActor: isMainActor(isolation))
    }

    /// ``verify(skipping:providing:isolation:)`` that also builds the registrations with an
    /// `async` factory, first, each in turn: the synchronous registrations then find the async
    /// singletons they depend on built, as in an app that resolves them at launch.
    ///
    /// ```swift
    /// let report = await resolver.verifyAsync()
    /// #expect(report.isValid, "\(report)")
    /// ```
    public func verifyAsync(
        skipping: [any Any.Type] = [], providing standIns: ((Resolver) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async -> VerificationReport {
        let sandbox = verificationSandbox(providing: standIns)
        let plan = VerificationPlan(of: self, in: sandbox, skipping: skipping, buildingAsync: true)
        var outcomes: [Key: ResolutionError?] = [:]
        // Bound to the run's container, which the async builds carry: what a factory resolves from
        // a container it captured (this one, or an ancestor) is built there instead.
        let runBinding = ContainerBinding(sandbox, enclosing: nil, outer: nil, sandbox: sandbox)
        for binding in plan.bindings where binding.provider.isAsync {
            do {
                let value = try await Resolver.$binding.withValue(runBinding) {
                    try await binding.provider.resolveErasedAsync(
                        as: binding.key, from: sandbox, arguments: nil, site: nil, isolation: isolation)
                }
                try Self.check(value, servedFor: binding, in: sandbox)
                outcomes[binding.key] = .some(nil)
            } catch {
                outcomes[binding.key] = error as? ResolutionError
            }
        }
        return verify(plan, in: sandbox, asyncOutcomes: outcomes, lendingMainActor: isMainActor(isolation))
    }

    /// Throws when `binding` is a key `.implements` wrote and `value`, built by its registration,
    /// is not of the key's type: resolving the key would stop the program.
    private static func check(_ value: Any, servedFor binding: AnyBinding, in sandbox: Resolver) throws(ResolutionError)
    {
        guard let alias = binding as? Alias, !alias.accepts(value) else { return }
        throw ResolutionError(
            .notConvertible(from: type(of: value)), key: alias.key, path: [], container: sandbox, site: alias.site,
            suggestions: [Messages.implementsFix(alias.key, instanceType: type(of: value))])
    }

    /// The throw-away container a verification builds in.
    private func verificationSandbox(providing standIns: ((Resolver) -> Void)?) -> Resolver {
        bootstrapIfPending(.current)
        let sandbox = Resolver(isolatedChildOf: self, name: "verification of \(name)")
        standIns?(sandbox)
        return sandbox
    }

    /// Builds what `plan` lists in `sandbox`; the async registrations were built already, with
    /// `asyncOutcomes`.
    private func verify(
        _ plan: VerificationPlan, in sandbox: Resolver, asyncOutcomes: [Key: ResolutionError?], lendingMainActor: Bool
    ) -> VerificationReport {
        let resolution = Resolution.current
        let run = VerificationRun(sandbox: sandbox, builtAsync: plan.buildsAsync)
        for binding in plan.bindings {
            let build = { (sandbox: Resolver) throws(ResolutionError) in
                if let outcome = asyncOutcomes[binding.key] {
                    if let error = outcome { throw error }
                    return
                }
                do throws(ResolutionError) {
                    let value = try binding.provider.resolveErased(
                        as: binding.key, from: sandbox, arguments: nil, site: nil, in: .current)
                    try Self.check(value, servedFor: binding, in: sandbox)
                } catch
                    where binding !== binding.provider && error.yieldsNothing(for: binding.provider.key, atDepth: 0)
                {
                    return  // a key `.implements` wrote, served by a registration that may yield nothing
                }
            }
            let isMainActorBound = registryLock.withReadLock(resolution.stripe) { binding.provider.isMainActorBound }
            run.add(
                VerificationRun.Item(owner: binding.key, build: build, isMainActorBound: isMainActorBound, prefix: []))
        }
        let lendingMainActor = lendingMainActor || resolution.isOnMainActor
        run.run(lendingMainActor: lendingMainActor)
        let report = plan.report(of: run)
        run.dismantle(lendingMainActor: lendingMainActor)
        return report
    }

    /// Where keys visible from here were registered before their current binding, by key. Lock held.
    func replacedSitesLocked() -> [Key: [SourceLocation]] {
        var sites: [Key: [SourceLocation]] = [:]
        var container: Resolver? = self
        while let current = container {
            sites.merge(current.registry.replacedSites) { nearer, _ in nearer }
            container = current.parent
        }
        return sites
    }

    /// Whether this container keeps no registration and no instance of its own. Lock taken.
    var keepsNothing: Bool {
        withChainReadLock { registry.bindings.isEmpty && storeCopies.isEmpty }
    }

    /// Whether `key` resolves without building: registered along the chain, or an Optional (which
    /// may be left out).
    func isRegisteredKey(_ key: Key) -> Bool {
        withChainReadLock {
            visibleBinding(for: key) != nil || (key.arguments == nil && key.type is any OptionalResolvable.Type)
        }
    }
}

/// What a `verify()` run builds, what it leaves out, and the warnings found without building.
struct VerificationPlan {
    /// The registrations to build, in registration order, the nearest container's first.
    private(set) var bindings: [AnyBinding] = []
    private var skipped: [(reason: String, keys: [String])] = []
    private var warnings: [String] = []
    private var registrationCount = 0
    private var aliasCount = 0
    /// The context the run builds in, and what each registration with context factories is built
    /// with.
    private let context: Resolver.Context
    private var contextFactories: [String]
    /// Registrations whose declared dependencies (an `autoregister`ed type's) are missing, with
    /// the failures, in registration order among ``bindings`` (by the count of bindings before).
    private var missingDeclared: [(owner: Key, before: Int, errors: [ResolutionError])] = []

    static let needsArguments = "they need runtime arguments"
    static let skippedAsAsked = "as asked"
    static let asyncFactory = "async factories; verifyAsync() builds them"
    static let mainActor = "main-actor registrations; verify() from main-actor code builds them"
    static let needsAsyncInstance = "they need an async singleton built first; verifyAsync() builds it"
    /// Whether the run builds the async registrations first (`verifyAsync()`).
    let buildsAsync: Bool

    init(of resolver: Resolver, in sandbox: Resolver, skipping: [any Any.Type], buildingAsync: Bool) {
        let skippedTypes = Set(skipping.map(ObjectIdentifier.init))
        buildsAsync = buildingAsync
        _ = Resolver.Context.process  // decided before the lock: it asks the dynamic loader
        let (all, replaced, context, implementedTwice) = resolver.withChainReadLock {
            let all = resolver.allBindingsLocked()
            // Keys that more than one registration's `.implements` wrote: `resolveAll()` builds each.
            var implementers: [Key: Int] = [:]
            for binding in all where binding === binding.provider {
                for key in binding.provider.aliasKeys ?? [] { implementers[key, default: 0] += 1 }
            }
            return (
                all, resolver.replacedSitesLocked(), sandbox.contextLocked,
                Set(implementers.filter { $0.value > 1 }.keys)
            )
        }
        self.context = context
        var builtByContextFactory: Set<ObjectIdentifier> = []
        contextFactories = registryLock.withReadLock(Resolution.current.stripe) {
            all.compactMap { binding -> String? in
                let provider = binding.provider
                guard binding === provider, !provider.contexts.isEmpty else { return nil }
                let number = Int(provider.contextFactoryNumber(builtBy: sandbox))
                if number != 0 { builtByContextFactory.insert(ObjectIdentifier(provider)) }
                let factory = number == 0 ? "its own factory" : "its \(provider.contexts[number - 1]) factory"
                return "\(binding.key.description): \(factory)"
            }
        }
        var byKey: [Key: AnyBinding] = [:]
        for binding in all { byKey[binding.key] = binding }
        for binding in all {
            let isAlias = binding.provider !== binding
            if isAlias { aliasCount += 1 } else { registrationCount += 1 }
            if skippedTypes.contains(ObjectIdentifier(binding.provider.key.type))
                || skippedTypes.contains(ObjectIdentifier(binding.key.type))
            {
                note(binding.key, skippedBecause: Self.skippedAsAsked)
            } else if binding.provider.key.arguments != nil {
                note(binding.key, skippedBecause: Self.needsArguments)
            } else if binding.provider.isAsync && !buildingAsync
                && !builtByContextFactory.contains(ObjectIdentifier(binding.provider))
            {
                note(binding.key, skippedBecause: Self.asyncFactory)
            } else {
                // A context factory builds without the registration's own factory's dependencies.
                let declared =
                    builtByContextFactory.contains(ObjectIdentifier(binding.provider))
                    ? [] : binding.provider.declaredDependencies ?? []
                let missing = declared.filter { !sandbox.isRegisteredKey($0) }
                if missing.isEmpty {
                    bindings.append(binding)
                } else {
                    // Asked for where the `autoregister` call is, as when it resolves.
                    let errors = missing.map {
                        sandbox.missingError(for: $0, site: binding.provider.site, path: [binding.key])
                    }
                    missingDeclared.append((binding.key, bindings.count, errors))
                }
            }
            if !isAlias, let wrapped = (binding.key.type as? any OptionalType.Type)?.wrappedType,
                byKey[binding.key.with(type: wrapped)] == nil
            {
                warnings.append(Messages.optionalRegistration(binding.key, wrapped: wrapped, site: binding.site))
            }
        }
        for (key, sites) in replaced.sorted(by: { $0.key.description < $1.key.description }) {
            guard let binding = byKey[key] else { continue }
            warnings.append(
                binding.aliasTarget != nil && implementedTwice.contains(key)
                    ? Messages.implementedTwice(key, earlier: sites, last: binding.site)
                    : Messages.registeredTwice(key, earlier: sites, last: binding.site))
        }
    }

    private mutating func note(_ key: Key, skippedBecause reason: String) {
        if let index = skipped.firstIndex(where: { $0.reason == reason }) {
            skipped[index].keys.append(key.description)
        } else {
            skipped.append((reason, [key.description]))
        }
    }

    /// The report of `run`, which built ``bindings`` (and what they led to) in order.
    func report(of run: VerificationRun) -> VerificationReport {
        var plan = self
        var failures: [ResolutionError] = []
        var seen: Set<String> = []
        var failed: Set<Key> = []
        /// Registrations that (or whose lazy properties) need an async singleton's instance.
        var skippedForAsync: Set<Key> = []
        func record(_ error: ResolutionError, of owner: Key) {
            failed.insert(owner)
            if seen.insert(error.description).inserted { failures.append(error) }
        }
        // Each registration's failures in registration order, then those of what its
        // `@LazyInject` properties ask for.
        var declared = missingDeclared[...]
        let roots = run.items.indices.filter { run.items[$0].prefix.isEmpty }
        let lazy = Dictionary(grouping: run.items.indices.filter { !run.items[$0].prefix.isEmpty }) {
            run.items[$0].owner
        }
        for (position, index) in roots.enumerated() {
            while let next = declared.first, next.before <= position {
                for error in next.errors { record(error, of: next.owner) }
                declared = declared.dropFirst()
            }
            let owner = run.items[index].owner
            for index in [index] + (lazy[owner] ?? []) {
                switch run.outcomes[index] {
                case .failed(let error)?:
                    record(error, of: owner)
                case .needsMainActor?:
                    if run.items[index].prefix.isEmpty { plan.note(owner, skippedBecause: Self.mainActor) }
                case .needsAsyncInstance?:
                    skippedForAsync.insert(owner)
                case .built?, nil:
                    break
                }
            }
        }
        for next in declared {
            for error in next.errors { record(error, of: next.owner) }
        }
        for index in roots
        where skippedForAsync.contains(run.items[index].owner) && !failed.contains(run.items[index].owner) {
            plan.note(run.items[index].owner, skippedBecause: Self.needsAsyncInstance)
        }
        let verified = run.items.enumerated().compactMap { index, item -> String? in
            guard item.prefix.isEmpty, case .built? = run.outcomes[index], !failed.contains(item.owner),
                !skippedForAsync.contains(item.owner)
            else { return nil }
            return item.owner.description
        }
        let weak = run.notHeldWeakly.sorted { $0.key.description < $1.key.description }.map {
            Messages.weakValueType($0.key, lifetime: $0.value)
        }
        return VerificationReport(
            failures: failures, warnings: plan.warnings + weak, verified: verified,
            registrationCount: registrationCount, aliasCount: aliasCount,
            failedRegistrationCount: failed.count, context: context, contextFactories: contextFactories,
            skippedByReason: plan.skipped)
    }
}
