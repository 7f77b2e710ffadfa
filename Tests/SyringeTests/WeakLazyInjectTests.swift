import Foundation
import Syringe
import Testing

// @WeakLazyInject, the lazy wrappers' projected values, and back-references closed through
// them in every lifetime.

private final class WLIParent {
    @Inject var child: WLIChild
}
private final class WLIChild {
    @WeakLazyInject var parent: WLIParent?
}
private protocol WLICoordinator: AnyObject {}
private final class WLIAppCoordinator: WLICoordinator {}
private final class WLIScreen: @unchecked Sendable {
    @WeakLazyInject var coordinator: WLICoordinator?
}
private final class WLIImages {}
private final class WLIProfile {
    @LazyInject var images: WLIImages
}

// The Adamant-like shape: A → B → C → weak A.
private final class WLIA {
    let b: WLIB
    init(b: WLIB) { self.b = b }
}
private final class WLIB {
    let c: WLIC
    init(c: WLIC) { self.c = c }
}
private final class WLIC {
    @WeakLazyInject var a: WLIA?
}

/// An object made by a container that is gone by the time its lazy values are first read.
private func wliScreenFromAContainerGoneSince() -> (WLIScreen, WLIProfile) {
    let gone = Resolver()
    gone.register { WLIScreen() }
    gone.register { WLIProfile() }
    return (gone.resolve(), gone.resolve())
}

@Suite struct WeakLazyInjectTests {
    /// README, "Property wrappers": a first read after the container that made the object is gone
    /// stops the program, naming the wrapper read and the eager wrapper that matches it.
    @Test func aFirstReadAfterItsContainerIsGoneNamesTheWrapper() async {
        let weak = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = wliScreenFromAContainerGoneSince().0.coordinator
        }
        let weakText = fxStderr(weak)
        #expect(weakText.contains("the @WeakLazyInject property declared at"))
        #expect(weakText.contains("or use @WeakInject to resolve when the object is created"))
        let strong = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = wliScreenFromAContainerGoneSince().1.images
        }
        let strongText = fxStderr(strong)
        #expect(strongText.contains("the @LazyInject property declared at"))
        #expect(strongText.contains("or use @Inject to resolve when the object is created"))
    }

    @Test func resolversParentAndChildExample() {
        let r = Resolver()
        r.register(lifetime: .graph) { WLIParent() }
        r.register { WLIChild() }
        let parent: WLIParent = r.resolve()
        #expect(parent.child.parent === parent)
        let other: WLIParent = r.resolve()
        #expect(other.child.parent === other)
    }

    @Test func parentAndChildAreFreedWhenTheLastOutsideReferenceGoes() {
        let r = Resolver()
        r.register(lifetime: .weak) { WLIParent() }
        r.register { WLIChild() }
        let watchParent = FxWeak<WLIParent>()
        let watchChild = FxWeak<WLIChild>()
        do {
            let parent: WLIParent = r.resolve()
            #expect(parent.child.parent === parent)
            watchParent.object = parent
            watchChild.object = parent.child
        }
        #expect(watchParent.object == nil)
        #expect(watchChild.object == nil)
    }

    @Test func aClassBoundProtocolIsHeldWeaklyAndResolvedOnFirstRead() {
        let r = Resolver()
        let built = FxCounter()
        r.register(WLICoordinator.self, lifetime: .singleton) { () -> WLICoordinator in
            built.increment()
            return WLIAppCoordinator()
        }
        let screen = Resolver.withContainer(r) { WLIScreen() }
        #expect(built.value == 0)
        #expect(!screen.$coordinator.isResolved)
        #expect(screen.coordinator === (r.resolve() as WLICoordinator))
        #expect(screen.$coordinator.isResolved)
        #expect(built.value == 1)
    }

    @Test func theValueReadsNilOnceNothingHoldsItAndReleaseResolvesAgain() {
        let r = Resolver()
        r.register(lifetime: .weak) { WLIParent() }
        r.register { WLIChild() }
        let child = Resolver.withContainer(r) { WLIChild() }
        #expect(child.parent != nil)  // the first read hands out what it resolved…
        #expect(child.parent == nil)  // …which nothing else held
        #expect(!child.$parent.isResolved)
        let held: WLIParent = r.resolve()
        #expect(child.parent == nil)  // not resolved again by itself
        child.$parent.release()
        #expect(child.parent === held)
    }

    /// Resolver's `$parent.isEmpty` is `!$parent.isResolved`: true once the instance is gone.
    @Test func isResolvedIsFalseOnceTheWeaklyHeldInstanceIsGone() {
        let r = Resolver()
        r.register(lifetime: .weak) { WLIParent() }
        r.register { WLIChild() }
        let child = Resolver.withContainer(r) { WLIChild() }
        #expect(!child.$parent.isResolved)
        do {
            let held: WLIParent = r.resolve()
            #expect(child.parent === held)
            #expect(child.$parent.isResolved)
        }
        #expect(!child.$parent.isResolved)  // every strong reference is gone
        #expect(child.parent == nil)
        let again: WLIParent = r.resolve()
        child.$parent.release()
        #expect(child.parent === again)
        #expect(child.$parent.isResolved)
        child.parent = nil
        #expect(!child.$parent.isResolved)
    }

    @Test func eightThreadsReadingForTheFirstTimeShareOneResolution() {
        for _ in 0..<20 {
            let r = Resolver()
            let built = FxCounter()
            r.register(WLICoordinator.self, lifetime: .weak) { () -> WLICoordinator in
                built.increment()
                Thread.sleep(forTimeInterval: 0.001)
                return WLIAppCoordinator()
            }
            let keep: WLICoordinator = r.resolve()
            built.increment()  // the one above
            let screen = Resolver.withContainer(r) { WLIScreen() }
            let seen = FxRecorder<ObjectIdentifier?>()
            #expect(fxRunThreads(8) { _ in seen.append(screen.coordinator.map(ObjectIdentifier.init)) })
            #expect(Set(seen.values) == [ObjectIdentifier(keep)])
            #expect(built.value == 2)
        }
    }

    @Test func adamantShapeResolvesInEveryLifetimeCombination() {
        let lifetimes: [Lifetime] = [.transient, .graph, .singleton, .weak]
        for la in lifetimes {
            for lb in lifetimes {
                for lc in lifetimes {
                    let r = Resolver()
                    r.register(lifetime: la) { WLIA(b: $0.resolve()) }
                    r.register(lifetime: lb) { WLIB(c: $0.resolve()) }
                    r.register(lifetime: lc) { WLIC() }
                    let a: WLIA = r.resolve()
                    let back = a.b.c.a
                    #expect(back != nil, "A \(la), B \(lb), C \(lc)")
                    if la != .transient {
                        #expect(back === a, "A \(la), B \(lb), C \(lc)")
                    }
                }
            }
        }
    }

    // MARK: Projected values of @LazyInject

    @Test func lazyInjectProjectionReportsAndReleases() {
        let r = Resolver()
        r.register { WLIImages() }
        let profile = Resolver.withContainer(r) { WLIProfile() }
        #expect(profile.$images.container === r)
        #expect(!profile.$images.isResolved)
        let first = profile.images
        #expect(profile.$images.isResolved)
        #expect(profile.images === first)
        profile.$images.release()
        #expect(!profile.$images.isResolved)
        #expect(profile.images !== first)
    }

    /// An object made outside any factory and `withContainer` body (a test case, which XCTest
    /// makes before `setUp` registers) resolves from the root of its first read, as Resolver's
    /// `@LazyInjected` does: here a root swapped in after the object was made.
    @Test func aLazyWrapperMadeOutsideAFactoryAndABindingResolvesFromTheRootOfItsFirstRead() async {
        await #expect(processExitsWith: .success) {
            let profile = WLIProfile()
            let mock = Resolver(parent: .main)
            mock.register { WLIImages() }
            Resolver.root = mock
            #expect(profile.$images.container === mock)
            _ = profile.images
            #expect(profile.$images.container === mock)
        }
    }

    /// Resolver's `$property.container = …` and `$property.name = …`: set before the first read,
    /// they choose what it resolves.
    @Test func settingTheContainerAndNameOfALazyWrapperChoosesWhatItsFirstReadResolves() {
        let a = Resolver()
        a.register { WLIImages() }
        let b = Resolver()
        let named = WLIImages()
        b.register(name: "n") { named }
        let profile = Resolver.withContainer(a) { WLIProfile() }
        profile.$images.container = b
        profile.$images.name = "n"
        #expect(profile.$images.name == "n")
        #expect(profile.images === named)
        #expect(profile.$images.container === b)
        profile.$images.release()
        profile.$images.container = a
        profile.$images.name = nil
        #expect(profile.images !== named)
    }

    @Test func theProviderFormHasNoContainer() {
        final class Holder { @LazyInject({ WLIImages() }) var images: WLIImages }
        let holder = Holder()
        #expect(holder.$images.container == nil)
        holder.$images.container = Resolver()
        #expect(holder.$images.container == nil)
        #expect(holder.$images.name == nil)
    }
}

// Twins of CyclesAndBackReferences.md.
private final class CBRParent {
    @Inject var child: CBRChild
}
private final class CBRChild {
    @WeakLazyInject var parent: CBRParent?
}
private final class CBRLibrary {
    var catalog: CBRCatalog?
}
private final class CBRCatalog {
    let library: CBRLibrary
    init(library: CBRLibrary) { self.library = library }
}

@Suite struct CyclesAndBackReferencesDocumentationTests {
    /// "Legal: one side resolves later": a weak back-reference, resolved on first read.
    @Test func weakBackReference() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(lifetime: .graph) { CBRParent() }
            Resolver.register { CBRChild() }
            let parent: CBRParent = Resolver.resolve()
            #expect(parent.child.parent === parent)
            #expect(parent.child.$parent.isResolved)
            #expect(parent.child.$parent.container === r)
        }
    }

    /// "A step after construction", whichever side is resolved first.
    @Test func stepAfterConstruction() {
        for libraryFirst in [true, false] {
            let r = Resolver()
            Resolver.withContainer(r) {
                Resolver.register(lifetime: .singleton) { CBRLibrary() }
                    .initCompleted { resolver, library in library.catalog = resolver.resolve() as CBRCatalog }
                Resolver.register(lifetime: .singleton) { CBRCatalog(library: $0.resolve()) }
                if libraryFirst {
                    let library: CBRLibrary = Resolver.resolve()
                    #expect(library.catalog?.library === library)
                } else {
                    let catalog: CBRCatalog = Resolver.resolve()
                    #expect(catalog.library.catalog === catalog)
                }
            }
        }
    }

    /// The same with a transient `Library`: its step leads back to a new one, a cycle with the step
    /// in its loop.
    @Test func aTransientWhoseStepLeadsBackToItsTypeIsACycleThroughTheStep() {
        let r = Resolver()
        r.register { CBRLibrary() }
            .initCompleted { resolver, library in library.catalog = try resolver.tryResolve() }
        r.register(lifetime: .singleton) { (resolver: Resolver) throws -> CBRCatalog in
            CBRCatalog(library: try resolver.tryResolve())
        }
        #expect(throws: ResolutionError.self) { try r.tryResolve(CBRLibrary.self) }
        do {
            _ = try r.tryResolve(CBRLibrary.self)
        } catch {
            #expect(
                error.description.contains("  cycle: CBRLibrary → CBRLibrary.initCompleted → CBRCatalog → CBRLibrary"))
        }
    }
}
