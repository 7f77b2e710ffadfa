/// The factory of a registration that takes runtime arguments, erased over the
/// argument types (which the key already pins down).
class ArgumentFactory<T> {
    /// Whether the registration's only argument is Optional, so it may be resolved
    /// without arguments (receiving nil).
    var acceptsNoArguments: Bool { false }

    /// Calls the factory with the tuple `arguments` points to.
    func make(_ resolver: Resolver, _ arguments: ArgumentValues) throws -> T { fatalError("abstract") }
}

/// The factory for arguments `(repeat each A)`.
final class PackArgumentFactory<T, each A>: ArgumentFactory<T> {
    let body: (repeat each A) throws -> T

    init(_ body: @escaping (repeat each A) throws -> T) {
        self.body = body
    }

    override var acceptsNoArguments: Bool {
        (repeat each A).self is any ExpressibleByNilLiteral.Type
    }

    override func make(_ resolver: Resolver, _ arguments: ArgumentValues) throws -> T {
        guard let pointer = arguments.pointer else {
            // Only reached for a single Optional argument: pass nil.
            let type = (repeat each A).self as! any ExpressibleByNilLiteral.Type
            let none: Any = type.init(nilLiteral: ())
            let values = none as! (repeat each A)
            return try body(repeat each values)
        }
        let values = pointer.assumingMemoryBound(to: (repeat each A).self).pointee
        return try body(repeat each values)
    }
}
