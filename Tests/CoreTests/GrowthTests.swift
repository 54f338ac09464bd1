import Testing
import TestSupport

/// The instrument of the linear-time tests (TestSupport/Growth.swift) can
/// fail: quadratic work measures over the limit, linear work under it.
struct GrowthTests {
    @Test func quadraticWorkIsCaught() {
        let ratio = Growth.ratio(size: 600) { size in
            var sum = 0
            for i in 0..<size { for j in 0..<size { sum &+= i ^ j } }
            blackHole(sum)
        }
        #expect(ratio > Growth.linearLimit, "quadratic work measured \(ratio)×")
    }

    @Test func linearWorkPasses() {
        let ratio = Growth.ratio(size: 200_000) { size in
            var sum = 0
            for i in 0..<size { sum &+= i * 31 }
            blackHole(sum)
        }
        #expect(ratio < Growth.linearLimit, "linear work measured \(ratio)×")
    }

    @inline(never) func blackHole(_ value: Int) {
        if value == 42 { print("") }
    }
}
