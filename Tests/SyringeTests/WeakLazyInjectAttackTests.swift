import Foundation
import Syringe
import Testing

// @WeakLazyInject's isResolved read from many threads while the weakly held instance comes and
// goes, the instance's deinit reading the property back.

private final class WlaHolder: @unchecked Sendable {
    @WeakLazyInject var owner: WlaOwner?
}
private final class WlaOwner {
    let holder: WlaHolder
    let deinits: FxCounter
    init(holder: WlaHolder, deinits: FxCounter) {
        self.holder = holder
        self.deinits = deinits
    }
    deinit {
        // Would deadlock if a read of the property released the last reference under its lock.
        _ = holder.$owner.isResolved
        _ = holder.owner
        deinits.increment()
    }
}

@Suite struct WeakLazyInjectAttackTests {
    @Test func isResolvedAndReadsRaceTheReleaseOfTheInstance() {
        let holder = WlaHolder()
        let deinits = FxCounter()
        let made = FxCounter()
        // Set before the readers start: a first read of a property never set resolves it, and
        // nothing registers `WlaOwner`.
        var first: WlaOwner? = WlaOwner(holder: holder, deinits: deinits)
        made.increment()
        holder.owner = first
        first = nil
        let finished = fxRunThreads(4, timeout: 120) { index in
            for _ in 0..<2_000 {
                if index == 0 {
                    var owner: WlaOwner? = WlaOwner(holder: holder, deinits: deinits)
                    made.increment()
                    holder.owner = owner
                    owner = nil
                } else if index == 1 {
                    _ = holder.owner
                } else {
                    _ = holder.$owner.isResolved
                }
            }
        }
        #expect(finished)
        #expect(deinits.value == made.value)
        #expect(!holder.$owner.isResolved)
        #expect(holder.owner == nil)
    }
}
