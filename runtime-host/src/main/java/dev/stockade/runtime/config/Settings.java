package dev.stockade.runtime.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every variable of {@link Variables#ALL} resolved to a value and the place it came from: the process
 * environment wins over the data home's {@code .env}, which wins over the default.
 */
public final class Settings {
    /** One resolved variable; {@code value} is {@code null} when unset. */
    public record Setting(Variable variable, String value, String source) {
        /**
         * The value as printed: a secret as {@link Redaction#MARKER} (a sentinel, which stands in for a key the
         * platform holds, as itself), the user information of URLs redacted, unset shown as such.
         */
        public String display() {
            if (value == null) {
                return "(unset)";
            }
            if (variable.secret() && !value.isEmpty()) {
                return Sentinels.isSentinel(value) ? value : Redaction.MARKER;
            }
            return value.isEmpty() ? "\"\"" : Redaction.value(variable.name(), value);
        }
    }

    private static final Pattern REF = Pattern.compile("\\$\\{([A-Za-z_.]+)}");
    /** Variables that locate the .env file itself; the file cannot move itself. */
    private static final List<String> LOCATING = List.of("AGENT_HOME", "AGENT_DATA_DIR");

    private final Map<String, Setting> byName;
    private final List<String> problems;
    private final List<String> warnings;
    private final Path dotEnvFile;

    private Settings(Map<String, Setting> byName, List<String> problems, List<String> warnings, Path dotEnvFile) {
        this.byName = Collections.unmodifiableMap(byName);
        this.problems = List.copyOf(problems);
        this.warnings = List.copyOf(warnings);
        this.dotEnvFile = dotEnvFile;
    }

    /** Resolves every variable from {@code env} (the process environment) and the data home's .env. */
    public static Settings resolve(Map<String, String> env, String userHome) {
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, Setting> out = new LinkedHashMap<>();
        Map<String, DotEnv.Entry> dot = Map.of();
        Path dotFile = null;
        for (Variable v : Variables.ALL) {
            if (v.name().equals("LLM_PROVIDER")) {
                // AGENT_HOME and AGENT_DATA_DIR are resolved: the .env file can now be located and read.
                dotFile = Path.of(out.get("AGENT_DATA_DIR").value(), ".env");
                dot = DotEnv.read(dotFile, problems);
            }
            out.put(v.name(), resolveOne(v, env, dot, dotFile, out, userHome));
        }
        for (String name : LOCATING) {
            if (dot.containsKey(name)) {
                warnings.add(dotFile + ":" + dot.get(name).line() + ": " + name
                        + " is ignored in .env (it locates the file); set it in the environment");
            }
        }
        return new Settings(out, problems, warnings, dotFile);
    }

    private static Setting resolveOne(Variable v, Map<String, String> env, Map<String, DotEnv.Entry> dot,
            Path dotFile, Map<String, Setting> done, String userHome) {
        String value;
        String source;
        if (env.containsKey(v.name())) {
            value = env.get(v.name());
            source = "environment";
        } else if (dot.containsKey(v.name()) && !LOCATING.contains(v.name())) {
            value = dot.get(v.name()).value();
            source = dotFile + ":" + dot.get(v.name()).line();
        } else {
            value = v.defaultValue() == null ? null : expand(v.defaultValue(), done, userHome);
            source = v.defaultValue() == null ? "unset" : "default";
        }
        if (value != null && value.contains("${PLATFORM_API_URL}") && done.get("PLATFORM_API_URL") != null) {
            // The platform's env plan writes base URLs as templates over PLATFORM_API_URL.
            String api = done.get("PLATFORM_API_URL").value();
            value = value.replace("${PLATFORM_API_URL}", api == null ? "" : stripSlash(api));
        }
        return new Setting(v, value, source);
    }

    private static String expand(String template, Map<String, Setting> done, String userHome) {
        Matcher m = REF.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String ref = m.group(1);
            String val = ref.equals("user.home") ? userHome
                    : done.containsKey(ref) && done.get(ref).value() != null ? done.get(ref).value() : "";
            m.appendReplacement(sb, Matcher.quoteReplacement(val));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    static String stripSlash(String s) {
        String out = s;
        while (out.endsWith("/")) {
            out = out.substring(0, out.length() - 1);
        }
        return out;
    }

    /** The resolved variable {@code name} (one of {@link Variables#ALL}). */
    public Setting get(String name) {
        Setting s = byName.get(name);
        if (s == null) {
            throw new IllegalArgumentException("not a runtime variable: " + name);
        }
        return s;
    }

    /** The value of {@code name}, {@code null} when unset. */
    public String value(String name) {
        return get(name).value();
    }

    /** The value of {@code name}, {@code null} when unset or blank. */
    public String nonBlank(String name) {
        String v = value(name);
        return v == null || v.isBlank() ? null : v.strip();
    }

    public List<Setting> all() {
        return List.copyOf(byName.values());
    }

    /** Problems found while reading the .env file (each stops startup). */
    public List<String> problems() {
        return problems;
    }

    public List<String> warnings() {
        return warnings;
    }

    public Path dotEnvFile() {
        return dotEnvFile;
    }
}
