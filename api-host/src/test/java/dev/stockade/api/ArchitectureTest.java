package dev.stockade.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.web.ProblemBody;
import dev.stockade.testing.CoreSeams;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The floors of the platform host (docs/architecture.md), checked on the compiled classes: the kernel imports no
 * feature, a feature imports only the kernel and features on lower floors, no package cycle, one constructor each for
 * problem bodies, audit entries and authorization grants; and the seams of the other modules on this class path (the
 * core's {@code internal} packages and the proxy's are their module's own; the core uses no framework).
 */
class ArchitectureTest {
    static final String BASE = "dev.stockade.api.";

    /** Each feature's floor; the kernel is floor 0 and the launcher (the root package) stands above them all. */
    static final Map<String, Integer> FLOORS = Map.ofEntries(
            Map.entry("kernel", 0),
            Map.entry("tenancy", 1), Map.entry("enforcement", 1), Map.entry("enrollment", 1), Map.entry("oauth", 1),
            Map.entry("mcp", 1), Map.entry("audit", 1),
            Map.entry("credentials", 2), Map.entry("governance", 2), Map.entry("halt", 2), Map.entry("signin", 2),
            Map.entry("sandbox", 3), Map.entry("clusters", 3),
            Map.entry("connectors", 4), Map.entry("spend", 4), Map.entry("aws", 4),
            Map.entry("inference", 5), Map.entry("egress", 5), Map.entry("impact", 5),
            Map.entry("ui", 5),
            Map.entry("", 6));

    private static final JavaClasses PLATFORM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stockade.api");

    /** This host with the core and the proxy it embeds (their jars are on the class path). */
    private static final JavaClasses ALL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stockade");

    /** The feature (top-level package under {@code dev.stockade.api}) a class lives in; "" for the root package. */
    static Optional<String> feature(JavaClass c) {
        String pkg = c.getPackageName();
        if (pkg.equals("dev.stockade.api")) {
            return Optional.of("");
        }
        if (!pkg.startsWith(BASE)) {
            return Optional.empty();
        }
        String rest = pkg.substring(BASE.length());
        int dot = rest.indexOf('.');
        return Optional.of(dot < 0 ? rest : rest.substring(0, dot));
    }

    /** A feature may use a class of another feature only on a lower floor. */
    static final ArchCondition<JavaClass> ONLY_LOWER_FLOORS = new ArchCondition<>("use only lower floors") {
        @Override
        public void check(JavaClass origin, ConditionEvents events) {
            String from = feature(origin).orElseThrow();
            for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                Optional<String> to = feature(d.getTargetClass());
                if (to.isEmpty() || to.get().equals(from)) {
                    continue;
                }
                if (FLOORS.get(to.get()) >= FLOORS.get(from)) {
                    events.add(SimpleConditionEvent.violated(d, "`" + from + "` (floor " + FLOORS.get(from)
                            + ") uses `" + to.get() + "` (floor " + FLOORS.get(to.get()) + "): " + d.getDescription()));
                }
            }
        }
    };

    @Test
    void everyPackageHasAFloor() {
        TreeSet<String> missing = new TreeSet<>();
        PLATFORM.forEach(c -> feature(c).filter(f -> !FLOORS.containsKey(f)).ifPresent(missing::add));
        assertThat(missing).as("packages without a floor in ArchitectureTest.FLOORS and docs/architecture.md")
                .isEmpty();
    }

    @Test
    void featuresUseOnlyLowerFloors() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes().that().resideInAPackage("dev.stockade.api..")
                .should(ONLY_LOWER_FLOORS)
                .because("a feature imports only the kernel and features below it (docs/architecture.md)")
                .check(PLATFORM);
    }

    @Test
    void theKernelImportsNoFeature() {
        noClasses().that().resideInAPackage("dev.stockade.api.kernel..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.stockade.api..")
                        .and(JavaClass.Predicates.resideOutsideOfPackage("dev.stockade.api.kernel..")))
                .because("the kernel is what every feature uses; a feature it needs answers through a kernel"
                        + " interface (docs/architecture.md)")
                .check(PLATFORM);
    }

    @Test
    void problemBodiesAuditEntriesAndGrantsHaveOneConstructorEach() {
        classesOutside("dev.stockade.api.kernel.web..", ProblemBody.class,
                "a problem body is made only by the kernel's Problems, so every surface answers the same shape");
        classesOutside("dev.stockade.api.kernel.audit..", AuditEvent.class,
                "an audit entry is built only through AuditEvent.of(kind, action)...build()");
        classesOutside("dev.stockade.api.kernel.access..", Grant.class,
                "an authorization decision is made only by the Authorizer's table");
    }

    private static void classesOutside(String home, Class<?> type, String because) {
        ArchCondition<JavaClass> construct = new ArchCondition<>("construct " + type.getSimpleName()) {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                for (JavaConstructorCall call : origin.getConstructorCallsFromSelf()) {
                    if (call.getTargetOwner().isEquivalentTo(type)) {
                        events.add(SimpleConditionEvent.satisfied(call, call.getDescription()));
                    }
                }
            }
        };
        noClasses().that().resideOutsideOfPackage(home).should(construct).because(because).check(PLATFORM);
    }

    @Test
    void outboundClientsAreBuiltOnlyByTheFactory() {
        noClasses().that().resideOutsideOfPackage("dev.stockade.api.kernel.net..")
                .should().callMethod(java.net.http.HttpClient.class, "newBuilder")
                .orShould().callMethod(java.net.http.HttpClient.class, "newHttpClient")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(
                        "org.apache.hc.client5.http.impl.classic.HttpClients")
                .because("every outbound dial says whom it trusts: OutboundClients.guarded for what a user names,"
                        + " trusted for the installation's own services")
                .check(PLATFORM);
    }

    @Test
    void onlyTheProxyUsesItsInternals() {
        noClasses().that().resideOutsideOfPackage("dev.stockade.proxy..")
                .should().dependOnClassesThat().resideInAPackage("dev.stockade.proxy.internal..")
                .because("`internal` is proxy-host's own; the dial guard hosts share is dev.stockade.proxy.dial")
                .check(ALL);
    }

    @Test
    void coreInternalsAreTheirModulesOwn() {
        CoreSeams.internalsAreTheirModulesOwn(ALL);
        CoreSeams.coreUsesNoFramework(ALL);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.stockade.api.(*)..").should().beFreeOfCycles().check(PLATFORM);
        slices().matching("dev.stockade.api.kernel.(*)..").should().beFreeOfCycles().check(PLATFORM);
        slices().matching("dev.stockade.api.*.(*)..").should().beFreeOfCycles().check(PLATFORM);
    }
}
