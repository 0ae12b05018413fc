package dev.stockade.api.kernel.web;

import dev.stockade.policy.model.NameCharacters;
import io.micronaut.core.annotation.AnnotationValue;
import io.micronaut.core.annotation.NonNull;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.validation.validator.constraints.ConstraintValidator;
import io.micronaut.validation.validator.constraints.ConstraintValidatorContext;
import jakarta.inject.Singleton;

/**
 * Checks {@link DisplayName} with the core's definition of the characters a name may not contain; the MCP tools that
 * take a name call {@link #valid} so that both surfaces apply the one rule.
 */
@Singleton
public final class DisplayNameValidator implements ConstraintValidator<DisplayName, String> {
    @Override
    public boolean isValid(@Nullable String value, @NonNull AnnotationValue<DisplayName> annotation,
                           @NonNull ConstraintValidatorContext context) {
        return value == null || valid(value);
    }

    /** Whether {@code name} is a display name: 1 to {@value DisplayName#MAX} characters, none forbidden. */
    public static boolean valid(String name) {
        return !name.isEmpty() && name.length() <= DisplayName.MAX && NameCharacters.firstForbidden(name) < 0;
    }
}
