package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.policy.model.MaskingType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The policy block as the engine reads it, and what a proxy does when masking fails. */
class MaskingSettingsTest {

    @Test
    void theEnginesTypesAreThePolicysTypes() {
        assertThat(Arrays.stream(PiiType.values()).map(Enum::name))
                .containsExactlyElementsOf(Arrays.stream(MaskingType.values()).map(MaskingType::wire).toList());
    }

    @Test
    void absentFieldsReadAsEveryTypeNoUnmaskingAndFailingClosed() {
        MaskingSettings s = MaskingSettings.fromPolicy(null, null, null);
        assertThat(s.types()).containsExactlyInAnyOrderElementsOf(EnumSet.allOf(PiiType.class));
        assertThat(s.unmaskResponses()).isFalse();
        assertThat(s.failOpen()).isFalse();
        assertThat(s.budget()).isEqualTo(ScanBudget.DEFAULT);
    }

    @Test
    void anUnknownTypeIsRefusedByName() {
        assertThatThrownBy(() -> MaskingSettings.fromPolicy(List.of("EMAIL", "POSTCODE"), true, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("`POSTCODE`");
        assertThatThrownBy(() -> MaskingSettings.fromPolicy(List.of(), true, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one type");
    }

    @Test
    void aDeadWorkerRefusesEvenWhenFailingOpen() {
        MaskingSettings open = MaskingSettings.fromPolicy(List.of("EMAIL"), false, true);
        MaskingSettings closed = MaskingSettings.fromPolicy(List.of("EMAIL"), false, false);
        for (MaskingException.Kind kind : MaskingException.Kind.values()) {
            MaskingException e = new MaskingException(kind, "x");
            assertThat(closed.onFailure(e)).isEqualTo(FailureAction.REFUSE_503);
            assertThat(open.onFailure(e)).isEqualTo(kind == MaskingException.Kind.WORKER_DEAD
                    ? FailureAction.REFUSE_503 : FailureAction.SEND_UNMASKED);
        }
    }

    @Test
    void budgetsOutsideTheirBoundsAreRefused() {
        assertThatThrownBy(() -> new ScanBudget(-1, 1024, 128)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScanBudget(10, 100, 64)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("twice its overlap");
    }
}
