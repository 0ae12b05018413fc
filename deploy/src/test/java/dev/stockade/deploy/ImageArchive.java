package dev.stockade.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * One image tar the hosts' {@code images} profile wrote (Jib's docker-archive), read and unpacked by the real tools a
 * user would use (skopeo, umoci), so the tests check the image as a runtime sees it, not Jib's settings.
 */
record ImageArchive(String module, Path tar, String reference) {
    /** Where the reactor's modules are: surefire runs in deploy/. */
    static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    /** The tar of {@code module}'s image, tagged {@code reference}; skips (fails in CI) when it was not built. */
    static ImageArchive of(String module, String reference) {
        Path tar = PROJECT.resolve(module).resolve("target").resolve(reference.replaceAll(":.*", "").replace('/', '-')
                + "-image.tar");
        Assumptions.assumeTrue(Files.isRegularFile(tar), () -> "no " + tar + ": build the images first with"
                + " ./mvnw -B -Pimages -pl api-host,proxy-host,runtime-host package -DskipTests (needs root,"
                + " mmdebstrap, umoci, skopeo)");
        for (String tool : List.of("skopeo", "umoci")) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin", tool)), () -> "no " + tool
                    + ": apt-get install " + tool);
        }
        return new ImageArchive(module, tar, reference);
    }

    /** The image's configuration, as {@code skopeo inspect --config} reads it under the reference the chart pulls. */
    ImageConfig config() throws IOException, InterruptedException {
        String json = run(List.of("skopeo", "inspect", "--config", "docker-archive:" + tar + ":" + reference));
        return ImageConfig.parse(new ObjectMapper().readTree(json).path("config"));
    }

    /** The image's root file system, unpacked with the layers' owners kept (skopeo to an OCI layout, then umoci). */
    Path unpack(Path into) throws IOException, InterruptedException {
        Path layout = Files.createDirectories(into).resolve("oci");
        run(List.of("skopeo", "copy", "--quiet", "docker-archive:" + tar + ":" + reference, "oci:" + layout + ":image"));
        Path bundle = into.resolve("bundle");
        run(List.of("umoci", "unpack", "--image", layout + ":image", bundle.toString()));
        return bundle.resolve("rootfs");
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException(command.get(0) + " did not finish in 5 minutes: " + command);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + text);
        }
        return text;
    }

    /** The parts of an image configuration a runtime acts on. */
    record ImageConfig(List<String> entrypoint, List<String> cmd, String user, String workingDir,
            SortedSet<String> exposedPorts, List<String> env, Map<String, String> labels, boolean healthcheck) {

        static ImageConfig parse(JsonNode c) {
            SortedSet<String> ports = new TreeSet<>();
            c.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
            Map<String, String> labels = new TreeMap<>();
            c.path("Labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            return new ImageConfig(strings(c.path("Entrypoint")), strings(c.path("Cmd")), c.path("User").asText(),
                    c.path("WorkingDir").asText(), ports, strings(c.path("Env")), labels, c.has("Healthcheck"));
        }

        private static List<String> strings(JsonNode array) {
            List<String> out = new ArrayList<>();
            array.forEach(n -> out.add(n.asText()));
            return List.copyOf(out);
        }

        /** The numeric user and group of {@code User} ({@code uid:gid}); a name would need the image's passwd. */
        int[] uidGid() {
            String[] parts = user.split(":");
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts.length > 1 ? parts[1] : parts[0])};
        }
    }
}
