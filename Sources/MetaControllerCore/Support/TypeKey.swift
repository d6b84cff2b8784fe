/// A type, as a dictionary key that hashes in a handful of instructions.
///
/// The package keeps factories, custom slots and what it learned about types
/// in dictionaries keyed by type. An `ObjectIdentifier` key is hashed with
/// `Hasher` (SipHash), about a sixth of a factory request on the machine of
/// Docs/Performance.md. A type's identifier is the address of its metadata,
/// which no user of the package chooses, so two multiplications are enough:
/// the table cannot be flooded with colliding keys from outside.
@usableFromInline
struct TypeKey: Hashable, Sendable {
    @usableFromInline let id: ObjectIdentifier

    @inlinable
    init(_ id: ObjectIdentifier) {
        self.id = id
    }

    @inlinable
    init(_ type: Any.Type) {
        id = ObjectIdentifier(type)
    }

    @inlinable
    static func == (lhs: TypeKey, rhs: TypeKey) -> Bool {
        lhs.id == rhs.id
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// What `Dictionary` and `Set` hash with (the default feeds ``hash(into:)``
    /// to SipHash): the address, mixed with the table's seed, multiplied by
    /// 2⁶⁴/φ, its high bits folded into the low ones, multiplied again and
    /// folded again, so that every bit that picks a bucket depends on every bit
    /// of the address.
    ///
    /// One multiplication with its high half rotated down (the first version)
    /// was not enough: metadata made at run time lies at a regular stride, and
    /// for some strides 400 types fell into 54 of 512 buckets. Over 7,500
    /// seeded strides and seeds this one never filled fewer than 250 (random
    /// keys fill about 277).
    // swift-format-ignore: NoLeadingUnderscores
    // The name is the standard library's requirement, which this implementation replaces.
    @inlinable
    func _rawHashValue(seed: Int) -> Int {
        let address = UInt64(UInt(bitPattern: id)) ^ UInt64(UInt(bitPattern: seed))
        // Not `&*`: the availability check resolves it to an overload newer than our minimums.
        var mixed = address.multipliedReportingOverflow(by: 0x9E37_79B9_7F4A_7C15).partialValue
        mixed ^= mixed >> 29
        mixed = mixed.multipliedReportingOverflow(by: 0xBF58_476D_1CE4_E5B9).partialValue
        return Int(truncatingIfNeeded: mixed ^ mixed >> 32)
    }
}
