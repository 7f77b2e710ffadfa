import Foundation
import Syringe
import Testing

// Twins of the snippets in Syringe.docc/Articles/AsyncFactories.md and the README's
// "Async factories" section.

/// Stands in for reading a file: the article's `Disk.read`.
enum Disk {
    static func read(_ path: String) async throws -> [String] {
        await Task.yield()
        return ["first note from \(path)"]
    }
}

actor NoteStore {
    static let loads = FxCounter()
    private(set) var notes: [String]

    init(notes: [String]) { self.notes = notes }

    static func load(from path: String) async throws -> NoteStore {
        loads.increment()
        return NoteStore(notes: try await Disk.read(path))
    }

    func add(_ note: String) { notes.append(note) }
}

@MainActor final class NotesViewModel {
    let store: NoteStore
    init(store: NoteStore) { self.store = store }
}

final class NotesView {
    @Inject var store: NoteStore
    func show() -> NoteStore { store }
}

private func registerNotes(in resolver: Resolver) {
    resolver.register(name: "notesPath") { "/tmp/notes.json" }
    resolver.register(lifetime: .singleton) { (r: Resolver) async throws -> NoteStore in
        try await NoteStore.load(from: r.resolve(name: "notesPath"))
    }
}

@Suite(.serialized) struct AsyncDocumentationTests {
    @Test func anAsyncFactoryIsAnOrdinaryRegistration() async {
        let resolver = Resolver()
        registerNotes(in: resolver)
        let store: NoteStore = await resolver.resolveAsync()
        #expect(await store.notes == ["first note from /tmp/notes.json"])
    }

    @Test func aThousandTasksLoadTheStoreOnce() async {
        let resolver = Resolver()
        registerNotes(in: resolver)
        let before = NoteStore.loads.value
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask { let _: NoteStore = await resolver.resolveAsync() }
            }
        }
        #expect(NoteStore.loads.value == before + 1)
    }

    @Test func aMainActorFactoryHopsThereFromABackgroundTask() async {
        let resolver = Resolver()
        registerNotes(in: resolver)
        resolver.register { @MainActor (r: Resolver) async -> NotesViewModel in
            NotesViewModel(store: await r.resolveAsync())
        }
        let model = await Task.detached { () -> NotesViewModel in await resolver.resolveAsync() }.value
        let store: NoteStore = await resolver.resolveAsync()
        #expect(model.store === store)
    }

    @Test func anAppWarmsUpAtLaunchThenInjectsSynchronously() async {
        let resolver = Resolver()
        registerNotes(in: resolver)
        await Resolver.withContainer(resolver) {
            let warmed: NoteStore = await Resolver.resolveAsync()  // at launch
            let view = NotesView()  // @Inject var store: NoteStore
            #expect(view.show() === warmed)
        }
    }

    @Test func theMessageNamesTheKeyThePathAndTheFix() throws {
        let resolver = Resolver(id: "async-docs-\(FxSerial.next())")
        registerNotes(in: resolver)
        do {
            _ = try resolver.tryResolve(NoteStore.self)
            Issue.record("resolved")
        } catch {
            let lines = error.description.split(separator: "\n").map(String.init)
            #expect(
                lines[0]
                    == "Syringe: NoteStore has an async factory and no instance built yet; "
                    + "a synchronous resolve() cannot run it")
            #expect(lines.contains { $0.hasPrefix("  requested at SyringeTests/AsyncDocumentationTests.swift:") })
            #expect(
                lines.contains {
                    $0.hasPrefix("  its factory, registered at SyringeTests/AsyncDocumentationTests.swift:")
                        && $0.hasSuffix(
                            "is async: resolve it with `let value: NoteStore = await resolver.resolveAsync()` "
                                + "(or tryResolveAsync())")
                })
            #expect(lines.last?.hasPrefix("  a singleton, .cached or scoped async registration resolved once") == true)
        }
    }

    @Test func anInjectedAsyncRegistrationNotBuiltStopsWithThePath() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let resolver = Resolver()
            registerNotes(in: resolver)
            resolver.register { NotesView() }
            _ = resolver.resolve(NotesView.self)
        }
        let text = fxStderr(result)
        #expect(text.contains("NoteStore has an async factory and no instance built yet"))
        #expect(text.contains("while resolving NotesView → NoteStore"))
    }

    @Test func theMessageNamesThePathOfADependency() async {
        let resolver = Resolver()
        registerNotes(in: resolver)
        resolver.register { r throws in NotesViewPlain(store: try r.tryResolve()) }
        do {
            _ = try resolver.tryResolve(NotesViewPlain.self)
            Issue.record("resolved")
        } catch {
            #expect(error.description.contains("while resolving NotesViewPlain → NoteStore"))
        }
    }

    @Test func verifyAsyncReportsTheWholeGraph() async {
        let resolver = Resolver()
        registerNotes(in: resolver)
        resolver.register { r in NotesViewPlain(store: r.resolve()) }
        let report = await resolver.verifyAsync()
        #expect(report.isValid)
        #expect(report.failures.isEmpty)
        let plain = resolver.verify()
        #expect(plain.description.contains("skipped (async factories; verifyAsync() builds them): NoteStore"))
    }

    // An app that warms its async singletons up at launch and injects them synchronously: verify()
    // builds no async factory, so what needs one is listed as skipped, not as failing, with the
    // way to check it (verifyAsync()).
    @Test func verifyListsWhatNeedsAnAsyncSingletonAsSkipped() {
        let resolver = Resolver()
        registerNotes(in: resolver)
        resolver.register { r in NotesViewPlain(store: r.resolve()) }
        resolver.register { NotesView() }
        let report = resolver.verify()
        #expect(report.isValid, "\(report)")
        #expect(report.failures.isEmpty)
        #expect(
            report.description.contains(
                "skipped (they need an async singleton built first; verifyAsync() builds it): NotesViewPlain, NotesView"
            ),
            "\(report)")
        #expect(!report.verified.contains("NotesViewPlain") && !report.verified.contains("NotesView"))
    }

    // A registration that fails and needs an async singleton is listed as failing, not skipped.
    @Test func aFailingRegistrationIsNotAlsoSkipped() {
        let resolver = Resolver()
        registerNotes(in: resolver)
        resolver.register { NotesViewAndMissing() }
        let report = resolver.verify()
        #expect(!report.isValid)
        #expect(!report.description.contains("they need an async singleton built first"), "\(report)")
    }

    // A transient async registration is never returned by a synchronous resolve(): what needs one
    // fails in verify() and in verifyAsync() alike.
    @Test func whatNeedsATransientAsyncRegistrationFails() async {
        let resolver = Resolver()
        resolver.register { () async -> NoteStore in NoteStore(notes: ["transient"]) }
        resolver.register { r in NotesViewPlain(store: r.resolve()) }
        for report in [resolver.verify(), await resolver.verifyAsync()] {
            #expect(!report.isValid)
            #expect(report.failures.count == 1)
            #expect(report.failures.first?.description.contains("NoteStore has an async factory") == true)
        }
    }
}

final class NotesViewPlain {
    let store: NoteStore
    init(store: NoteStore) { self.store = store }
}

protocol NotePlugin: Sendable {}
struct MarkdownPlugin: NotePlugin {}

@Suite struct AsyncReadmeTests {
    @Test func theFeatureTourResolvesWithEveryAsyncVerb() async throws {
        let resolver = Resolver()
        resolver.register(name: "notesPath") { "/tmp/notes.json" }
        resolver.register(lifetime: .singleton) { (r: Resolver) async throws -> NoteStore in
            try await NoteStore.load(from: r.resolve(name: "notesPath"))
        }
        resolver.register { @MainActor (r: Resolver) async -> NotesViewModel in
            NotesViewModel(store: await r.resolveAsync())
        }
        resolver.register(NotePlugin.self, name: "markdown") { () async -> NotePlugin in MarkdownPlugin() }

        let store: NoteStore = await resolver.resolveAsync()
        let checked: NoteStore = try await resolver.tryResolveAsync()
        let maybe: NoteStore? = await resolver.optionalAsync()
        let all: [NotePlugin] = await resolver.resolveAllAsync()
        let report = await resolver.verifyAsync()
        let model: NotesViewModel = await resolver.resolveAsync()
        #expect(checked === store)
        #expect(maybe === store)
        #expect(model.store === store)
        #expect(all.count == 1)
        #expect(report.isValid)
    }
}

final class NotesViewAndMissing {
    @LazyInject var store: NoteStore
    @LazyInject var missing: NotesViewPlain
}

/// Opens asynchronously; its catalog is set by its `initCompleted` step.
private final class AdLibrary: @unchecked Sendable {
    var catalog: AdCatalog?
    static func open() async throws -> AdLibrary { AdLibrary() }
}
private final class AdCatalog {}
private struct AdLabel {
    let text: String
}
private struct AdNumbered: Sendable {
    let number: Int
    let label: String
}

/// AsyncFactories.md: an async registration's `initCompleted` step, and an argument factory's
/// static calls.
@Suite struct AsyncStepAndArgumentDocumentationTests {
    @Test func anAsyncRegistrationsStepTakesTheContainerAndTheInstance() async throws {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async throws -> AdLibrary in try await AdLibrary.open() }
            .initCompleted { resolver, library in library.catalog = resolver.resolve() }
        r.register { AdCatalog() }
        let library: AdLibrary = try await r.tryResolveAsync()
        #expect(library.catalog != nil)
    }

    @Test func anArgumentFactorysStaticCallsResolveFromTheContainerResolvingIt() async {
        let app = Resolver()
        app.register { AdLabel(text: "app") }
        app.register(arguments: Int.self) { (number: Int) async -> AdNumbered in
            AdNumbered(number: number, label: (Resolver.resolve() as AdLabel).text)
        }
        let child = Resolver(parent: app)
        child.register { AdLabel(text: "child") }
        let numbered: AdNumbered = await child.resolveAsync(arguments: 3)
        #expect(numbered.number == 3 && numbered.label == "child")
    }
}
