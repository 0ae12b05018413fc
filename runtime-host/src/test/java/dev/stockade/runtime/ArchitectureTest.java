package dev.stockade.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.json.StrictJson;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The runtime's packages in layers (channels depend on the agent, never the other way round; the terminal UI is a
 * client of the HTTP API) and the two seams
 * that keep a class of bug in one place: every JSON body or stored payload is read by {@link StrictJson}, and
 * every child process gets its environment from {@link ChildEnvironment}.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stockade.runtime");

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("dev.stockade.runtime.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theAgentKnowsNoChannel() {
        noClasses().that().resideInAPackage("dev.stockade.runtime.agent..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.stockade.runtime.channel..",
                        "dev.stockade.runtime.webhook..", "dev.stockade.runtime.web..")
                .because("channels are adapters over the one agent loop; the agent offers interfaces they implement")
                .check(CLASSES);
    }

    @Test
    void packagesFormLayers() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Composition").definedBy("dev.stockade.runtime")
                .layer("Channels").definedBy("dev.stockade.runtime.channel..", "dev.stockade.runtime.webhook..",
                        "dev.stockade.runtime.web..")
                .layer("Clients").definedBy("dev.stockade.runtime.tui..")
                .layer("Agent").definedBy("dev.stockade.runtime.agent..")
                .layer("Foundation").definedBy("dev.stockade.runtime.config..", "dev.stockade.runtime.json..",
                        "dev.stockade.runtime.http..", "dev.stockade.runtime.store..",
                        "dev.stockade.runtime.provider..", "dev.stockade.runtime.observe..")
                .whereLayer("Composition").mayNotBeAccessedByAnyLayer()
                .whereLayer("Channels").mayOnlyBeAccessedByLayers("Composition")
                .whereLayer("Clients").mayOnlyBeAccessedByLayers("Composition")
                .whereLayer("Agent").mayOnlyBeAccessedByLayers("Channels", "Composition")
                .check(CLASSES);
    }

    @Test
    void onlyTheSlackChannelKnowsTheSlackClient() {
        noClasses().that().resideOutsideOfPackage("dev.stockade.runtime.channel.slack..")
                .should().dependOnClassesThat().resideInAnyPackage("com.slack.api..", "org.java_websocket..")
                .because("Bolt loads only when Slack is configured, so a runtime without Slack starts as fast as before")
                .check(CLASSES);
    }

    @Test
    void onlyTheVoiceChannelKnowsTheBrowserDriver() {
        noClasses().that().resideOutsideOfPackage("dev.stockade.runtime.channel.voice..")
                .should().dependOnClassesThat().resideInAnyPackage("org.openqa.selenium..")
                .because("Selenium loads only when a meeting is joined, so a runtime without voice starts as fast as before")
                .check(CLASSES);
    }

    @Test
    void theTerminalUiIsAClientOfTheHttpApiOnly() {
        noClasses().that().resideInAPackage("dev.stockade.runtime.tui..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.stockade.runtime", "dev.stockade.runtime.agent..",
                        "dev.stockade.runtime.channel..", "dev.stockade.runtime.webhook..", "dev.stockade.runtime.store..",
                        "dev.stockade.runtime.provider..", "dev.stockade.runtime.http..")
                .because("the terminal UI runs on a person's machine and reaches the agent only over its HTTP API")
                .check(CLASSES);
    }

    @Test
    void onlyTheStrictReaderParsesJsonOutsideTheProviderClients() {
        DescribedPredicate<JavaMethodCall> jacksonRead = DescribedPredicate.describe("a Jackson read",
                call -> Set.of("readTree", "readValue", "readValues").contains(call.getName())
                        && (call.getTargetOwner().isAssignableTo(ObjectMapper.class)
                                || call.getTargetOwner().isAssignableTo(ObjectReader.class)));
        noClasses().that().resideOutsideOfPackage("dev.stockade.runtime.provider..")
                .and().doNotBelongToAnyOf(StrictJson.class)
                // Skill files carry YAML front matter, not JSON bodies or payloads.
                .and().doNotHaveFullyQualifiedName("dev.stockade.runtime.agent.Skills")
                .should().callMethodWhere(jacksonRead)
                .because("request bodies and stored payloads are read strictly, by one reader (StrictJson)")
                .check(CLASSES);
    }

    @Test
    void onlyTheChildEnvironmentStartsProcesses() {
        noClasses().that().doNotBelongToAnyOf(ChildEnvironment.class)
                .should().callConstructorWhere(DescribedPredicate.describe("a ProcessBuilder constructor",
                        (JavaConstructorCall call) -> call.getTargetOwner().isAssignableTo(ProcessBuilder.class)))
                .orShould().callMethod(Runtime.class, "exec", String.class)
                .orShould().callMethod(Runtime.class, "exec", String[].class)
                .because("a child of the runtime gets the allowlisted environment, never the runtime's secrets")
                .check(CLASSES);
    }
}
