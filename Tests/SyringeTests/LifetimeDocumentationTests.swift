import Syringe
import Testing

// Twins of the lifetime snippets in README.md ("Lifetimes") and LifetimesAndScopes.md (the
// Singleton marker, named caches, time to live), with `LDoc`-prefixed types, each in a
// container of its own.

private enum LDocSession: Scope {}
private final class LDocAuthService {}
private final class LDocProfileStore {}
private final class LDocFeatureFlags {}
private protocol LDocClock: AnyObject {}
private final class LDocAppClock: LDocClock, Singleton {}
private final class LDocSettingsModel { @Inject var auth: LDocAuthService }

@Suite struct LifetimeDocumentationTests {
    /// README.md, "Lifetimes": a named cache and a time to live.
    @Test func readmeLifetimes() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { LDocAuthService() }.lifetime(.cached(in: LDocSession.self))
            Resolver.register { LDocFeatureFlags() }.lifetime(.timeToLive(.seconds(300)))

            let auth: LDocAuthService = Resolver.resolve()
            #expect((Resolver.resolve() as LDocAuthService) === auth)
            #expect((Resolver.resolve() as LDocFeatureFlags) === (Resolver.resolve() as LDocFeatureFlags))
            Resolver.dropCached(scopedTo: LDocSession.self)
            #expect((Resolver.resolve() as LDocAuthService) !== auth)
        }
    }

    /// LifetimesAndScopes.md, "Share one instance: singleton": the marker under a protocol.
    @Test func singletonMarkerUnderAProtocol() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { LDocAppClock() }
            Resolver.register(LDocClock.self) { LDocAppClock() }
            #expect((Resolver.resolve() as LDocAppClock) === (Resolver.resolve() as LDocAppClock))
            #expect((Resolver.resolve() as LDocClock) === (Resolver.resolve() as LDocClock))
        }
    }

    /// LifetimesAndScopes.md, "Keep instances in a named cache".
    @Test func namedCacheForASession() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { LDocAuthService() }.lifetime(.cached(in: LDocSession.self))
            Resolver.register { LDocProfileStore() }.lifetime(.cached(in: LDocSession.self))
            func logOut() {
                Resolver.dropCached(scopedTo: LDocSession.self)
            }
            let model = LDocSettingsModel()
            let profile: LDocProfileStore = Resolver.resolve()
            #expect(model.auth === (Resolver.resolve() as LDocAuthService))
            logOut()
            #expect(model.auth !== (Resolver.resolve() as LDocAuthService))
            #expect(profile !== (Resolver.resolve() as LDocProfileStore))
        }
    }

    /// LifetimesAndScopes.md, "Rebuild after a while: time to live".
    @Test func timeToLive() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { LDocFeatureFlags() }.lifetime(.timeToLive(.seconds(300)))
            #expect((Resolver.resolve() as LDocFeatureFlags) === (Resolver.resolve() as LDocFeatureFlags))
        }
    }

    /// Migrating.md, "From Resolver" and "From Factory": `.cached` becomes a named cache that
    /// dropping spares singletons; `.timeToLive(60)` becomes `.timeToLive(.seconds(60))`.
    @Test func migratingCachedAndTimeToLive() {
        enum Cached: Scope {}
        let r = Resolver()
        r.register { LDocAuthService() }.lifetime(.cached(in: Cached.self))
        r.register(lifetime: .singleton) { LDocProfileStore() }
        r.register { LDocFeatureFlags() }.lifetime(.timeToLive(.seconds(60)))
        let auth: LDocAuthService = r.resolve()
        let profile: LDocProfileStore = r.resolve()
        r.dropCached(scopedTo: Cached.self)
        #expect((r.resolve() as LDocAuthService) !== auth)
        #expect((r.resolve() as LDocProfileStore) === profile)
        #expect((r.resolve() as LDocFeatureFlags) === (r.resolve() as LDocFeatureFlags))
    }
}
