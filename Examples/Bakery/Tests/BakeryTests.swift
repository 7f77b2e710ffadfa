import BakeryApp
import Syringe
import SyringeTesting
import Testing

struct BakeryTests {
    @Test(.isolatedResolver) func eachPropertyGetsItsRegistration() {
        registerServices()

        let bakery = Bakery()

        #expect(bakery.bread is PainAuChocolat)
        #expect(bakery.bread2 is Croissant)
        #expect(bakery.pastry is Brioche)
        #expect(bakery.chocolate is PainAuChocolat)
    }

    @Test(.isolatedResolver) func namesAreUniquePerType() {
        registerServices()

        let bread: Bread = Resolver.resolve(name: "🥐")
        let chocolate: Chocolate = Resolver.resolve(name: "🥐")

        #expect(bread is Croissant)
        #expect(chocolate is PainAuChocolat)
    }

    @Test(.isolatedResolver) func qualifierSelectsItsOwnRegistration() {
        registerServices()

        let plain: Bread = Resolver.resolve()
        let viennoiserie: Bread = Resolver.resolve(qualifiedBy: Viennoiserie.self)

        #expect(plain is PainAuChocolat)
        #expect(viennoiserie is Brioche)
    }

    @Test(.isolatedResolver) func singletonsAreTheRegisteredInstances() {
        registerServices()

        let bakery = Bakery()
        let nextDoor = Bakery()

        #expect(bakery.worker === MySingleton.shared)
        #expect(nextDoor.worker === MySingleton.shared)
        #expect(bakery.planet === nextDoor.planet)
    }

    @Test(.isolatedResolver) func laterRegistrationReplacesTheEarlierOneByDefault() {
        registerServices()

        Resolver.register(Bread.self) { Croissant() }

        #expect(Bakery().bread is Croissant)
    }

    @Test func duplicateRegistrationStopsTheProgramWhenOverridesAreOff() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let resolver = Resolver()
            resolver.allowsOverrides = false
            resolver.register(Bread.self) { PainAuChocolat() }
            resolver.register(Bread.self) { Croissant() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Bread"))
        #expect(message.contains("BakeryTests.swift"))
    }

    @Test(.isolatedResolver) func programPrintsWhatTheBakeryGot() {
        let result = run(arguments: [])

        #expect(
            result.standardOutput == """
                The bakery got:
                  bread      pain au chocolat    @Inject var bread: Bread
                  bread2     croissant           @Inject(name: "🥐") var bread2: Bread
                  pastry     brioche             @Inject(Viennoiserie.self) var pastry: Bread
                  chocolate  pain au chocolat    @Inject(name: "🥐") var chocolate: Chocolate
                  worker     MySingleton.shared  @Inject var worker: Worker
                  planet     Earth               @Inject var planet: Planet

                The bakery next door got:
                  the same worker: yes
                  the same planet: yes

                """)
        #expect(result.standardError == "")
        #expect(result.status == 0)
    }

    @Test func helpPrintsUsage() {
        let result = run(arguments: ["-h"])

        #expect(result.standardOutput == usage)
        #expect(result.status == 0)
    }

    @Test func unexpectedArgumentsPrintUsageToStandardError() {
        let result = run(arguments: ["--open"])

        #expect(result.standardOutput == "")
        #expect(result.standardError == "error: unexpected arguments: --open\n\n" + usage)
        #expect(result.status == 64)
    }
}
