import Syringe
import SyringeTesting
import Testing

// A task started at once (`Task.immediate`) runs on the thread of the code that started it until it
// first suspends. An async `withContainer` it opens there is its innermost binding, and wins over
// the container of the factory or synchronous `withContainer` body it was started in, before its
// first suspension as after it.

private struct ItNow: Sendable {
    var t: Int
}

/// Holds a task a factory started.
private final class ItHolder: @unchecked Sendable {
    var task: Task<Int, Never>?
}

private func itChild(of parent: Resolver, _ t: Int) -> Resolver {
    let child = Resolver(parent: parent)
    child.register { ItNow(t: t) }
    return child
}

@Suite(.isolatedResolver) struct ImmediateTaskBindingTests {
    @Test func anAsyncScopeInsideASynchronousOneWinsBeforeAndAfterTheFirstSuspension() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let outer = itChild(of: app, 1)
        let inner = itChild(of: app, 2)
        let task = Resolver.withContainer(outer) { () -> Task<[Int], Never> in
            Task.immediate {
                await Resolver.withContainer(inner) { () async -> [Int] in
                    let before = (Resolver.resolve() as ItNow).t
                    let current = Resolver.current === inner
                    await Task.yield()
                    let after = (Resolver.resolve() as ItNow).t
                    return [before, after, current ? 1 : 0]
                }
            }
        }
        #expect(await task.value == [2, 2, 1])
        // The synchronous scope's own calls still use its container.
        #expect(Resolver.withContainer(outer) { (Resolver.resolve() as ItNow).t } == 1)
    }

    @Test func theSynchronousScopeKeepsItsContainerAroundTheTask() async {
        let app = Resolver()
        let outer = itChild(of: app, 1)
        let inner = itChild(of: app, 2)
        let (task, values) = Resolver.withContainer(outer) { () -> (Task<Int, Never>, [Int]) in
            let before = (Resolver.resolve() as ItNow).t
            let task = Task.immediate {
                await Resolver.withContainer(inner) { () async -> Int in
                    await Task.yield()
                    return (Resolver.resolve() as ItNow).t
                }
            }
            return (task, [before, (Resolver.resolve() as ItNow).t])
        }
        #expect(values == [1, 1])
        #expect(await task.value == 2)
    }

    @Test func aFactorysTaskThatOpensItsOwnScopeResolvesFromIt() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let scope = itChild(of: app, 6)
        app.register { () -> ItHolder in
            let holder = ItHolder()
            holder.task = Task.immediate {
                await Resolver.withContainer(scope) { () async -> Int in (Resolver.resolve() as ItNow).t }
            }
            return holder
        }
        let holder: ItHolder = app.resolve()
        #expect(await holder.task!.value == 6)
    }

    @Test func aTestContainerOpenedInAnImmediateTaskKeepsItsRegistrations() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let outer = Resolver(parent: app)
        let task = Resolver.withContainer(outer) { () -> Task<Int, Never> in
            Task.immediate {
                await Resolver.withTestContainer { () async -> Int in
                    Resolver.register { ItNow(t: 9) }
                    return (Resolver.resolve() as ItNow).t
                }
            }
        }
        #expect(await task.value == 9)
        #expect((outer.resolve() as ItNow).t == -1)
    }

    @Test func aFactoryInsideTheScopeUsesItsOwnContainer() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let inner = itChild(of: app, 2)
        inner.register { () -> [Int] in [(Resolver.resolve() as ItNow).t] }
        let outer = itChild(of: app, 1)
        let task = Resolver.withContainer(outer) { () -> Task<[Int], Never> in
            Task.immediate {
                await Resolver.withContainer(inner) { () async -> [Int] in Resolver.resolve() }
            }
        }
        #expect(await task.value == [2])
    }
}
