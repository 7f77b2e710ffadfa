import Syringe

public protocol Bread {
    var name: String { get }
}

public protocol Chocolate {}

public struct Croissant: Bread {
    public init() {}
    public var name: String { "croissant" }
}

public struct PainAuChocolat: Bread, Chocolate {
    public init() {}
    public var name: String { "pain au chocolat" }
}

public struct Brioche: Bread {
    public init() {}
    public var name: String { "brioche" }
}

public protocol Worker: AnyObject {}

public final class MySingleton: Worker, Sendable {
    public static let shared = MySingleton()
    private init() {}
}

public protocol Planet: AnyObject {
    var name: String { get }
}

public final class Earth: Planet {
    public init() {}
    public var name: String { "Earth" }
}

/// Selects the pastry counter's bread: the typed spelling of a key.
public enum Viennoiserie: Qualifier {}
