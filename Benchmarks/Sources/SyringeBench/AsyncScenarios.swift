import Dispatch
import Syringe

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The async scenarios: Syringe's async factories against the minimal registry's async
// equivalent (async factories in a dictionary, a shared instance built once by a `Task` every
// caller awaits: what an app writes by hand without async factories).

/// Runs `body` in a task and waits for it: how a synchronous job measures async code. The task
/// starts before the clock and the allocation count do.
func blockingOn(_ body: @escaping @Sendable () async -> UInt64) -> UInt64 {
    final class Box: @unchecked Sendable { var value: UInt64 = 0 }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value
}

/// ``timed(_:_:)`` for an async body.
@inline(__always)
func timedAsync(_ count: Int, _ body: () async -> Void) async -> UInt64 {
    let start = Measurement.begin()
    for _ in 0..<count { await body() }
    return Measurement.end(since: start)
}

/// How many tasks `async-first-100` starts at once.
let concurrentFirstResolutions = 100

/// The minimal registry's async equivalent: async factories by type behind a pthread mutex; a
/// shared instance is one `Task` that every caller awaits.
final class MinimalAsyncRegistry: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var factories: [ObjectIdentifier: @Sendable () async -> any Sendable] = [:]
    private var shared: [ObjectIdentifier: Task<any Sendable, Never>] = [:]

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func register<Service: Sendable>(
        _: Service.Type = Service.self, factory: @escaping @Sendable () async -> Service
    ) {
        pthread_mutex_lock(mutex)
        factories[ObjectIdentifier(Service.self)] = factory
        pthread_mutex_unlock(mutex)
    }

    /// Registers a shared instance: built by the first resolution, in a task the others await.
    func registerShared<Service: Sendable>(
        _: Service.Type = Service.self, factory: @escaping @Sendable () async -> Service
    ) {
        register(Service.self) { [unowned self] in
            let key = ObjectIdentifier(Service.self)
            pthread_mutex_lock(mutex)
            let task = shared[key] ?? Task { await factory() as any Sendable }
            shared[key] = task
            pthread_mutex_unlock(mutex)
            return await task.value as! Service
        }
    }

    func resolve<Service>(_: Service.Type = Service.self) async -> Service {
        pthread_mutex_lock(mutex)
        let factory = factories[ObjectIdentifier(Service.self)]
        pthread_mutex_unlock(mutex)
        guard let factory else { fatalError("\(Service.self) is not registered") }
        return await factory() as! Service
    }
}

enum AsyncScenarios {
    static func syringe(_ scenario: Scenario) -> Job? {
        let container = Resolver()
        switch scenario {
        case .asyncSingleton:
            container.register(lifetime: .singleton) { () async -> Database in Database() }
            _ = blockingOn {
                let _: Database = await container.resolveAsync()
                return 0
            }
            return Job { count in
                blockingOn {
                    await timedAsync(count) { blackHole(await container.resolveAsync(Database.self)) }
                }
            }
        case .asyncTransient:
            container.register { () async -> Leaf in Leaf() }
            return Job { count in
                blockingOn { await timedAsync(count) { blackHole(await container.resolveAsync(Leaf.self)) } }
            }
        case .asyncChain3:
            container.register { () async -> ChainC in ChainC() }
            container.register { (r: Resolver) async -> ChainB in ChainB(c: await r.resolveAsync()) }
            container.register { (r: Resolver) async -> ChainA in ChainA(b: await r.resolveAsync()) }
            return Job { count in
                blockingOn { await timedAsync(count) { blackHole(await container.resolveAsync(ChainA.self)) } }
            }
        case .asyncFirst100:
            return Job { count in
                blockingOn {
                    await timedAsync(count) {
                        let fresh = Resolver()
                        fresh.register(lifetime: .singleton) { () async -> Database in
                            await Task.yield()
                            return Database()
                        }
                        await withTaskGroup(of: Void.self) { group in
                            for _ in 0..<concurrentFirstResolutions {
                                group.addTask { blackHole(await fresh.resolveAsync(Database.self)) }
                            }
                        }
                    }
                }
            }
        case .requestScope:
            container.register(lifetime: .singleton) { Database() }
            container.register {
                RequestUseCase(database: Resolver.resolve(), user: Resolver.resolve(), log: Resolver.resolve())
            }
            return Job { count in
                blockingOn {
                    await timedAsync(count) {
                        let scope = Resolver(parent: container)
                        scope.register { RequestTag(value: 1) }
                        scope.register { RequestUser(name: "alice") }
                        scope.register { RequestLog(label: "request") }
                        // Typed async, as a server's handler is: the asynchronous withContainer.
                        let handler: () async -> Void = {
                            blackHole(Resolver.resolve(RequestUseCase.self))
                            blackHole(Resolver.resolve(RequestTag.self))
                        }
                        await Resolver.withContainer(scope, handler)
                    }
                }
            }
        default:
            return nil
        }
    }

    static func minimalRegistry(_ scenario: Scenario) -> Job? {
        let registry = MinimalAsyncRegistry()
        switch scenario {
        case .asyncSingleton:
            registry.registerShared { () async -> Database in Database() }
            return Job { count in
                blockingOn { await timedAsync(count) { blackHole(await registry.resolve(Database.self)) } }
            }
        case .asyncTransient:
            registry.register { () async -> Leaf in Leaf() }
            return Job { count in
                blockingOn { await timedAsync(count) { blackHole(await registry.resolve(Leaf.self)) } }
            }
        case .asyncChain3:
            registry.register { () async -> ChainC in ChainC() }
            registry.register { [unowned registry] () async -> ChainB in ChainB(c: await registry.resolve()) }
            registry.register { [unowned registry] () async -> ChainA in ChainA(b: await registry.resolve()) }
            return Job { count in
                blockingOn { await timedAsync(count) { blackHole(await registry.resolve(ChainA.self)) } }
            }
        case .asyncFirst100:
            return Job { count in
                blockingOn {
                    await timedAsync(count) {
                        let fresh = MinimalAsyncRegistry()
                        fresh.registerShared { () async -> Database in
                            await Task.yield()
                            return Database()
                        }
                        await withTaskGroup(of: Void.self) { group in
                            for _ in 0..<concurrentFirstResolutions {
                                group.addTask { blackHole(await fresh.resolve(Database.self)) }
                            }
                        }
                    }
                }
            }
        default:
            return nil
        }
    }
}
