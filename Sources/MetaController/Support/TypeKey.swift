/// A type, as a dictionary key that hashes in two instructions.
///
/// The package keeps factories, custom slots and what it learned about types
/// in dictionaries keyed by type. An `ObjectIdentifier` key is hashed with
/// `Hasher` (SipHash), about a sixth of a factory request on the machine of
/// Docs/Performance.md. A type's identifier is the address of its metadata,
/// which no user of the package chooses, so a multiplicative hash is enough:
/// the table cannot be flooded with colliding keys from outside.
struct TypeKey: Hashable, Sendable {
    let id: ObjectIdentifier

    @inline(__always)
    init(_ id: ObjectIdentifier) {
        self.id = id
    }

    @inline(__always)
    init(_ type: Any.Type) {
        id = ObjectIdentifier(type)
    }

    static func == (lhs: TypeKey, rhs: TypeKey) -> Bool {
        lhs.id == rhs.id
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// What `Dictionary` and `Set` hash with (the default feeds ``hash(into:)``
    /// to SipHash): the address mixed with the table's seed by one
    /// multiplication by 2⁶⁴/φ, whose high half, which depends on every bit of
    /// the address, is rotated into the low bits that pick a bucket.
    // swift-format-ignore: NoLeadingUnderscores
    // The name is the standard library's requirement, which this implementation replaces.
    @inline(__always)
    func _rawHashValue(seed: Int) -> Int {
        let address = UInt64(UInt(bitPattern: id)) ^ UInt64(UInt(bitPattern: seed))
        // Not `&*`: the availability check resolves it to an overload newer than our minimums.
        let mixed = address.multipliedReportingOverflow(by: 0x9E37_79B9_7F4A_7C15).partialValue
        return Int(truncatingIfNeeded: mixed >> 32 | mixed << 32)
    }
}
