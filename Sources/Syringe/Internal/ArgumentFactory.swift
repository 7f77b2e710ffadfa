/// The factory of a registration that takes runtime arguments, erased over the
/// argument types (which the key already pins down).
class ArgumentFactory<T> {
    /// Whether the registration's only argument is Optional, so it may be resolved
    /// without arguments (receiving nil).
    var acceptsNoArguments: Bool { false }

    /// Calls the factory with the tuple `arguments` points to.
    func make(_ resolver: Resolver, _ arguments: ArgumentValues) throws -> T { fatalError("abstract") }

    /// Converts `values` to the registered argument types and runs `body` with them; nil when
    /// their number differs or one is not an instance of its registered type.
    func withConverted<R>(
        _ values: [Any], _ body: (ArgumentValues) throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R? { fatalError("abstract") }
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

    override func withConverted<R>(
        _ values: [Any], _ body: (ArgumentValues) throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R? {
        var count = 0
        for type in repeat (each A).self {
            guard count < values.count, isInstance(values[count], of: type) else { return nil }
            count += 1
        }
        guard count == values.count else { return nil }
        var index = 0
        func take<V>(_ type: V.Type) -> V {
            defer { index += 1 }
            return values[index] as! V
        }
        var converted = (repeat take((each A).self))
        return try withUnsafePointer(to: &converted) { pointer throws(ResolutionError) in
            try body(ArgumentValues(pointer: UnsafeRawPointer(pointer)))
        }
    }
}

/// Whether `value` can be passed where a `V` is expected.
private func isInstance<V>(_ value: Any, of type: V.Type) -> Bool {
    value is V
}
