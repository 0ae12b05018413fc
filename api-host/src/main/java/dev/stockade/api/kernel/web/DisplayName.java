package dev.stockade.api.kernel.web;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A display name (of an organization, a project, a token, a cluster): 1 to {@value #MAX} characters, none of which a
 * name may not contain by the core's one definition ({@code NameCharacters}). A null passes; pair it with
 * {@code @NotBlank} where the name is required. Failing fields answer code {@code display-name}.
 */
@Documented
@Constraint(validatedBy = {})
@Retention(RUNTIME)
@Target({FIELD, METHOD, PARAMETER, TYPE_USE})
public @interface DisplayName {
    /** The longest display name, in UTF-16 code units as before. */
    int MAX = 100;

    String message() default "must be 1 to 100 characters without control, line-separator or bidirectional"
            + " formatting characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
