/// An open-addressing hash table from ``Key`` to binding, for the resolution hot path.
///
/// Compared with `Dictionary` it hashes with a multiply-shift of the type identities
/// instead of SipHash, returns bindings without retaining them, and lives in manually
/// allocated memory, so lookups do no reference counting and no exclusivity checks.
/// Guarded by ``registryLock`` like the rest of a registry.
struct LookupTable {
    private var keys: UnsafeMutablePointer<Key>
    private var values: UnsafeMutablePointer<Unmanaged<AnyBinding>?>
    private var capacity: Int
    private var shift: Int
    private(set) var count = 0

    init() {
        capacity = 16
        shift = Int.bitWidth - 4
        keys = .allocate(capacity: capacity)
        values = .allocate(capacity: capacity)
        values.initialize(repeating: nil, count: capacity)
    }

    /// Frees the storage and releases the bindings. Call once, when the registry goes.
    func destroy() {
        for index in 0..<capacity where values[index] != nil {
            values[index]!.release()
            (keys + index).deinitialize(count: 1)
        }
        keys.deallocate()
        values.deallocate()
    }

    @inline(__always)
    private func slot(for key: Key) -> Int {
        Int(bitPattern: key.fastHash >> UInt(shift))
    }

    /// The binding for `key`, unretained: valid while the lock is held.
    @inline(__always)
    func find(_ key: Key) -> Unmanaged<AnyBinding>? {
        var index = slot(for: key)
        let mask = capacity - 1
        while let value = values[index] {
            if keys[index] == key { return value }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Binds `key` to `binding` (retained), replacing any previous binding.
    mutating func insert(_ binding: AnyBinding, for key: Key) {
        if (count + 1) * 2 > capacity { grow() }
        var index = slot(for: key)
        let mask = capacity - 1
        while let value = values[index] {
            if keys[index] == key {
                value.release()
                values[index] = .passRetained(binding)
                return
            }
            index = (index + 1) & mask
        }
        (keys + index).initialize(to: key)
        values[index] = .passRetained(binding)
        count += 1
    }

    /// Unbinds `key`, shifting later entries back so that no tombstones are needed.
    mutating func remove(_ key: Key) {
        let mask = capacity - 1
        var index = slot(for: key)
        while let value = values[index] {
            if keys[index] == key {
                value.release()
                (keys + index).deinitialize(count: 1)
                values[index] = nil
                count -= 1
                closeGap(at: index)
                return
            }
            index = (index + 1) & mask
        }
    }

    private mutating func closeGap(at start: Int) {
        let mask = capacity - 1
        var gap = start
        var index = (start + 1) & mask
        while let value = values[index] {
            let home = slot(for: keys[index])
            // Move the entry back if its home slot is not between the gap and its position.
            let distanceFromHome = (index - home) & mask
            let distanceFromGap = (index - gap) & mask
            if distanceFromHome >= distanceFromGap {
                (keys + gap).moveInitialize(from: keys + index, count: 1)
                values[gap] = value
                values[index] = nil
                gap = index
            }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let oldCapacity = capacity
        capacity *= 2
        shift -= 1
        keys = .allocate(capacity: capacity)
        values = .allocate(capacity: capacity)
        values.initialize(repeating: nil, count: capacity)
        let mask = capacity - 1
        for old in 0..<oldCapacity {
            guard let value = oldValues[old] else { continue }
            var index = slot(for: oldKeys[old])
            while values[index] != nil { index = (index + 1) & mask }
            (keys + index).moveInitialize(from: oldKeys + old, count: 1)
            values[index] = value
        }
        oldKeys.deallocate()
        oldValues.deallocate()
    }
}

extension Key {
    /// A cheap hash for ``LookupTable``: the type identities mixed by multiplication
    /// (Fibonacci hashing); the name, when there is one, by ``nameHash(_:)``.
    @inline(__always)
    var fastHash: UInt {
        var hash = ObjectIdentifier(type).hashFriendlyBits
        if let qualifier { hash = (hash &* 31) ^ ObjectIdentifier(qualifier).hashFriendlyBits }
        if let scope { hash = (hash &* 37) ^ ObjectIdentifier(scope).hashFriendlyBits }
        if let arguments { hash = (hash &* 41) ^ ObjectIdentifier(arguments).hashFriendlyBits }
        if let name { hash = (hash &* 43) ^ Key.nameHash(name) }
        return hash &* 0x9E37_79B9_7F4A_7C15
    }
}

extension Key {
    /// A hash of `name` that agrees with `String`'s `==`: canonically equivalent names
    /// (`"caf\u{E9}"`, `"cafe\u{301}"`) hash alike.
    ///
    /// FNV-1a over the UTF-8 bytes of the name's Unicode normal form C: names are short, and this
    /// is several times cheaper than the standard hasher. An ASCII name is its own normal form,
    /// so only other names take the normalizing walk (the one `String` itself hashes with).
    /// Collisions only cost a longer probe.
    @inline(__always)
    static func nameHash(_ name: String) -> UInt {
        var hash: UInt = 0xcbf2_9ce4_8422_2325
        var bits: UInt8 = 0
        for byte in name.utf8 {
            bits |= byte
            hash = (hash ^ UInt(byte)) &* 0x0000_0100_0000_01b3
        }
        return bits < 0x80 ? hash : normalizedNameHash(name)
    }

    @inline(never)
    private static func normalizedNameHash(_ name: String) -> UInt {
        var hash: UInt = 0xcbf2_9ce4_8422_2325
        name._withNFCCodeUnits { byte in
            hash = (hash ^ UInt(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

extension ObjectIdentifier {
    /// The identity as an integer, with the always-zero alignment bits shifted out.
    @inline(__always)
    fileprivate var hashFriendlyBits: UInt {
        UInt(bitPattern: self) >> 3
    }
}
