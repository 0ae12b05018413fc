package dev.stockade.runtime.config;

/**
 * One environment variable of runtime.md's configuration tables.
 *
 * @param name the variable
 * @param group the table it belongs to (printed by {@code stockade runtime config})
 * @param defaultValue the default, or {@code null} when unset by default; may contain
 *     {@code ${OTHER}} references to variables resolved earlier in {@link Variables#ALL}
 * @param secret whether its value is redacted when printed or logged
 */
public record Variable(String name, String group, String defaultValue, boolean secret) {
    static Variable plain(String group, String name, String defaultValue) {
        return new Variable(name, group, defaultValue, false);
    }

    static Variable secret(String group, String name) {
        return new Variable(name, group, null, true);
    }
}
