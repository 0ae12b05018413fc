package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.provider.ToolSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Skills the agent can load: {@code <AGENT_SKILLS_DIR>/<name>/SKILL.md}, and each plugin's
 * {@code <AGENT_PLUGINS_DIR>/<plugin>/skills/<name>/SKILL.md} (named {@code <plugin>:<name>}). A SKILL.md opens
 * with YAML front matter giving {@code description} (and optionally {@code name}). The system prompt lists
 * names and descriptions; the {@code read_skill} tool returns a skill's instructions or one of its files.
 * The directories are read at every turn, so a skill added or removed applies to the next turn. Reads are
 * bounded and confined to the skill's own directory.
 */
public final class Skills {
    /** Skills listed at most; further ones are skipped with a warning. */
    public static final int MAX_SKILLS = 200;
    /** Largest SKILL.md or skill file read. */
    public static final int MAX_FILE = 256 * 1024;
    private static final int MAX_DESCRIPTION = 1024;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** One skill: its name, what it is for, and its directory. */
    public record Skill(String name, String description, Path dir) {
    }

    private final Path skillsDir;
    private final Path pluginsDir;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    public Skills(Path skillsDir, Path pluginsDir) {
        this.skillsDir = skillsDir;
        this.pluginsDir = pluginsDir;
    }

    /** The skills present now, plugin skills after the agent's own, each group in name order. */
    public List<Skill> list() {
        List<Skill> out = new ArrayList<>();
        scan(skillsDir, "", out);
        for (Path plugin : children(pluginsDir)) {
            String p = plugin.getFileName().toString();
            if (NAME.matcher(p).matches()) {
                scan(plugin.resolve("skills"), p + ":", out);
            } else {
                warnOnce(plugin, "a plugin directory's name is lowercase letters, digits and hyphens");
            }
        }
        return out;
    }

    /** The system prompt's section: one line per skill, or nothing when there is none. */
    String promptSection() {
        List<Skill> all = list();
        if (all.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\n## Skills\nLoad a skill with read_skill before doing what it "
                + "covers.\n");
        all.forEach(s -> sb.append("- ").append(s.name()).append(": ").append(s.description()).append('\n'));
        return sb.toString();
    }

    /** The {@code read_skill} tool. */
    Tool tool() {
        ToolSpec spec = new ToolSpec("read_skill", "Read a skill's instructions (SKILL.md), or another file of the "
                + "skill given as a path relative to its directory.", Toolbox.schema(List.of("name"), "name",
                        "string", "file", "string"));
        return new Tool(spec, false, this::read, null);
    }

    private String read(JsonNode in) throws Exception {
        String name = Toolbox.text(in, "name");
        Skill s = list().stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow(() -> new Tool.ToolError("no skill named `" + name + "`; the system prompt lists them"));
        String file = in.hasNonNull("file") ? Toolbox.text(in, "file") : "SKILL.md";
        Path target = confined(s.dir(), file);
        return "Skill " + s.name() + " (directory " + s.dir() + "), " + file + ":\n\n" + text(target);
    }

    /** {@code file} inside {@code dir} after links are followed, or a tool error. */
    private static Path confined(Path dir, String file) throws Tool.ToolError {
        try {
            Path root = dir.toRealPath();
            Path p = root.resolve(file).normalize();
            if (!p.startsWith(root) || !Files.isRegularFile(p) || !p.toRealPath().startsWith(root)) {
                throw new Tool.ToolError("`file` must name a file inside the skill's directory");
            }
            return p.toRealPath();
        } catch (IOException | InvalidPathException e) {
            throw new Tool.ToolError("`file` must name a file inside the skill's directory");
        }
    }

    private static String text(Path p) throws IOException, Tool.ToolError {
        try (InputStream in = Files.newInputStream(p)) {
            byte[] b = in.readNBytes(MAX_FILE + 1);
            if (b.length > MAX_FILE) {
                throw new Tool.ToolError("the file is larger than " + MAX_FILE / 1024 + " KiB");
            }
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    private void scan(Path dir, String prefix, List<Skill> out) {
        for (Path d : children(dir)) {
            if (out.size() >= MAX_SKILLS) {
                warnOnce(dir, "more than " + MAX_SKILLS + " skills; the rest are not listed");
                return;
            }
            Path md = d.resolve("SKILL.md");
            if (!Files.isRegularFile(md)) {
                continue;
            }
            Skill s = parse(prefix, d, md);
            if (s != null) {
                out.add(s);
            }
        }
    }

    private Skill parse(String prefix, Path dir, Path md) {
        try {
            String text = text(md);
            JsonNode fm = frontMatter(text);
            String name = fm.path("name").asText(dir.getFileName().toString());
            String desc = fm.path("description").asText("").strip().replaceAll("\\s+", " ");
            if (!NAME.matcher(name).matches() || desc.isEmpty()) {
                warnOnce(md, "SKILL.md needs front matter with a description and a name of lowercase letters, "
                        + "digits and hyphens");
                return null;
            }
            return new Skill(prefix + name, desc.length() > MAX_DESCRIPTION ? desc.substring(0, MAX_DESCRIPTION)
                    : desc, dir);
        } catch (IOException | Tool.ToolError e) {
            warnOnce(md, "SKILL.md could not be read: " + e.getClass().getSimpleName());
            return null;
        }
    }

    /** The YAML between a leading {@code ---} line and the next one; an empty object when there is none. */
    static JsonNode frontMatter(String text) throws IOException {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (!t.startsWith("---")) {
            return YAML.createObjectNode();
        }
        int end = t.indexOf("\n---", 3);
        if (end < 0) {
            return YAML.createObjectNode();
        }
        JsonNode n = YAML.readTree(t.substring(t.indexOf('\n') + 1, end + 1));
        return n != null && n.isObject() ? n : YAML.createObjectNode();
    }

    private static List<Path> children(Path dir) {
        List<Path> out = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, Files::isDirectory)) {
            ds.forEach(out::add);
        } catch (IOException e) {
            Log.warn("skills.unreadable", "error", e.getClass().getSimpleName());
        }
        out.sort(null);
        return out;
    }

    private void warnOnce(Path where, String why) {
        if (warned.add(where + why)) {
            Log.warn("skills.skipped", "path", where.toString(), "reason", why);
        }
    }
}
