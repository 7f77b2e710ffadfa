import Syringe

/// Registers the bakery's suppliers in the current container.
public func registerServices() {
    Resolver.register(Bread.self) { PainAuChocolat() }
    Resolver.register(Bread.self, name: "🥐") { Croissant() }
    Resolver.register(Bread.self, qualifiedBy: Viennoiserie.self) { Brioche() }
    // Names are unique per type: "🥐" is still free for Chocolate.
    Resolver.register(Chocolate.self, name: "🥐") { PainAuChocolat() }

    Resolver.registerSingleton(Worker.self, MySingleton.shared)
    Resolver.registerSingleton(Planet.self, Earth())
}

public final class Bakery {
    @Inject public var bread: Bread  // a new PainAuChocolat
    @Inject(name: "🥐") public var bread2: Bread  // a new Croissant
    @Inject(Viennoiserie.self) public var pastry: Bread  // a new Brioche
    @Inject(name: "🥐") public var chocolate: Chocolate  // a new PainAuChocolat
    @Inject public var worker: Worker  // always MySingleton.shared
    @Inject public var planet: Planet  // always the one Earth registered

    public init() {}
}
