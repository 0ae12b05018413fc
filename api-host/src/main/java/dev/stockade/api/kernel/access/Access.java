package dev.stockade.api.kernel.access;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the action a route performs; {@link AccessFilter} consults the table in {@link Action} for every request.
 * A method mapped to several paths (an organization's and a project's, say) declares one action per path scope, and
 * the filter takes the one whose {@link Scope#variable()} the matched path names.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Access {
    Action[] value();
}
