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

    override var acceptsNoArguments: Bool { acceptsNil((repeat each A).self) }

    override func make(_ resolver: Resolver, _ arguments: ArgumentValues) throws -> T {
        try withArgumentTuple(arguments, as: (repeat each A).self) { pointer in
            let values = pointer.pointee
            return try body(repeat each values)
        }
    }

    override func withConverted<R>(
        _ values: [Any], _ body: (ArgumentValues) throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R? {
        try withConvertedTuple(values, as: (repeat each A).self, body)
    }
}

// MARK: - What every factory of a pack of arguments shares

/// Whether arguments `(repeat each A)` may be left out: a single Optional argument (nil).
func acceptsNil<each A>(_ type: (repeat each A).Type) -> Bool {
    type is any ExpressibleByNilLiteral.Type
}

/// Runs `body` with a pointer to the arguments tuple: the one `arguments` points to, or nil for
/// a registration whose single Optional argument was left out.
@inline(__always)
func withArgumentTuple<each A, R>(
    _ arguments: ArgumentValues, as type: (repeat each A).Type,
    _ body: (UnsafePointer<(repeat each A)>) throws -> R
) rethrows -> R {
    guard let pointer = arguments.pointer else {
        // Only reached for a single Optional argument: pass nil.
        let none: Any = (type as! any ExpressibleByNilLiteral.Type).init(nilLiteral: ())
        var values = none as! (repeat each A)
        return try withUnsafePointer(to: &values, body)
    }
    return try body(pointer.assumingMemoryBound(to: type))
}

/// Converts `values` to arguments `(repeat each A)` and runs `body` with them; nil when their
/// number differs or one is not an instance of its type.
func withConvertedTuple<each A, R>(
    _ values: [Any], as type: (repeat each A).Type, _ body: (ArgumentValues) throws(ResolutionError) -> R
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

/// Whether `value` can be passed where a `V` is expected.
private func isInstance<V>(_ value: Any, of type: V.Type) -> Bool {
    value is V
}
