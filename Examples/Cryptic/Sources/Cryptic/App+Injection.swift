import CrypticApp
import Syringe

// Runs once, before the first resolution, as in the tutorial.
//
// An app that depends on the Syringe package writes `extension Resolver: @retroactive
// ResolverRegistering`; this example lives inside Syringe's own package, where the compiler
// rejects `@retroactive`. It is declared in the executable rather than in CrypticApp because a
// conformance is process-wide: the test bundle links CrypticApp next to other test targets that
// declare their own, and of two conformances in one process Swift uses either. Tests install
// `CrypticServices` in their own container instead.
extension Resolver: ResolverRegistering {
    public static func registerAllServices() {
        install(CrypticServices())
    }
}
