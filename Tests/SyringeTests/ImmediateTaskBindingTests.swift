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

private struct ItAsyncThing: Sendable {
    var t: Int
}

/// Holds the container a factory's task opens.
private final class ItScopeBox: @unchecked Sendable {
    var scope: Resolver?
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

    /// A second async withContainer nested in the first (no suspension): once it returns, the first
    /// one's container is current again.
    @Test func anInnerAsyncScopeEndingGivesBackTheOuterAsyncScope() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let outer = itChild(of: app, 1)
        let inner = itChild(of: app, 2)
        let innermost = itChild(of: app, 3)
        let task = Resolver.withContainer(outer) { () -> Task<[Int], Never> in
            Task.immediate {
                await Resolver.withContainer(inner) { () async -> [Int] in
                    let before = (Resolver.resolve() as ItNow).t
                    let nested = await Resolver.withContainer(innermost) { () async -> Int in
                        (Resolver.resolve() as ItNow).t
                    }
                    let after = (Resolver.resolve() as ItNow).t
                    return [before, nested, after]
                }
            }
        }
        let values = await task.value
        #expect(values == [2, 3, 2])
    }

    /// A test container opened in the immediate task keeps its registrations once a nested async
    /// scope inside it has ended: `Resolver.register` must not reach the enclosing scope's container.
    @Test func aTestContainersRegistrationsAfterANestedScopeStayInIt() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let outer = itChild(of: app, 1)
        let other = itChild(of: app, 5)
        let task = Resolver.withContainer(outer) { () -> Task<Int, Never> in
            Task.immediate {
                await Resolver.withTestContainer { () async -> Int in
                    await Resolver.withContainer(other) { () async in }
                    Resolver.register { ItNow(t: 9) }
                    return (Resolver.resolve() as ItNow).t
                }
            }
        }
        let value = await task.value
        #expect(value == 9)
        #expect((outer.resolve() as ItNow).t == 1, "the test container's registration went to the enclosing container")
    }

    /// An immediate task inside an immediate task: once the inner one suspends, the outer task's
    /// own async scope must be current again.
    @Test func anImmediateTaskInsideAnImmediateTaskLeavesTheOuterOnesScope() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let outer = itChild(of: app, 1)
        let middle = itChild(of: app, 2)
        let inner = itChild(of: app, 3)
        let task = Resolver.withContainer(outer) { () -> Task<[Int], Never> in
            Task.immediate {
                await Resolver.withContainer(middle) { () async -> [Int] in
                    let innerTask = Task.immediate {
                        await Resolver.withContainer(inner) { () async -> Int in
                            await Task.yield()
                            return (Resolver.resolve() as ItNow).t
                        }
                    }
                    let after = (Resolver.resolve() as ItNow).t
                    let current = Resolver.current === middle ? 1 : 0
                    return [after, current, await innerTask.value]
                }
            }
        }
        let values = await task.value
        #expect(values == [2, 1, 3])
    }

    /// An async factory resolved in the immediate task's scope: its static calls use the container
    /// building it, not the enclosing synchronous scope's.
    @Test func anAsyncFactoryInsideTheScopeUsesItsContainer() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let outer = itChild(of: app, 1)
        let inner = itChild(of: app, 2)
        inner.register { () async -> ItAsyncThing in ItAsyncThing(t: (Resolver.resolve() as ItNow).t) }
        let task = Resolver.withContainer(outer) { () -> Task<Int, Never> in
            Task.immediate {
                await Resolver.withContainer(inner) { () async -> Int in
                    (await Resolver.resolveAsync() as ItAsyncThing).t
                }
            }
        }
        let value = await task.value
        #expect(value == 2)
    }

    /// The same async factory reached from inside a factory that started the immediate task.
    @Test func anAsyncFactoryInsideAFactorysImmediateScopeUsesItsContainer() async {
        let app = Resolver()
        app.register { ItNow(t: -1) }
        let inner = itChild(of: app, 2)
        inner.register { () async -> ItAsyncThing in ItAsyncThing(t: (Resolver.resolve() as ItNow).t) }
        app.register { () -> ItHolder in
            let holder = ItHolder()
            holder.task = Task.immediate {
                await Resolver.withContainer(inner) { () async -> Int in
                    (await Resolver.resolveAsync() as ItAsyncThing).t
                }
            }
            return holder
        }
        let holder: ItHolder = app.resolve()
        let value = await holder.task!.value
        #expect(value == 2)
    }

    /// A synchronous resolution inside an async factory whose factory opens an async scope in an
    /// immediate task: the seam must be let go once everything ended (the container and its binding
    /// must not stay alive, and the binding count must come back).
    @Test func theSeamIsLetGoAfterAnAsyncFactorysSynchronousPart() async throws {
        weak var weakScope: Resolver?
        do {
            let app = Resolver()
            let box = ItScopeBox()
            box.scope = Resolver(parent: app)
            weakScope = box.scope
            app.register { () -> ItHolder in
                let holder = ItHolder()
                let scope = box.scope!
                holder.task = Task.immediate { await Resolver.withContainer(scope) { () async -> Int in 1 } }
                return holder
            }
            app.register { (r: Resolver) async -> ItAsyncThing in
                let holder: ItHolder = r.resolve()
                return ItAsyncThing(t: await holder.task!.value)
            }
            let thing: ItAsyncThing = await app.resolveAsync()
            #expect(thing.t == 1)
            box.scope = nil
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(weakScope == nil, "the container of the immediate task's scope is kept alive")
    }
}
