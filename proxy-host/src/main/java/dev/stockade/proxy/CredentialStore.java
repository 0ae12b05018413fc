package dev.stockade.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Where the proxy finds credentials to inject. Implementations are thread-safe. */
public interface CredentialStore {

    /** The credential a sentinel names. */
    Optional<Credential> byId(UUID id);

    /** The credential with this name. */
    Optional<Credential> byName(String name);

    /** A store with no credentials. */
    static CredentialStore empty() {
        return of(List.of());
    }

    /** An in-memory store. */
    static CredentialStore of(List<Credential> credentials) {
        Map<UUID, Credential> ids = new HashMap<>();
        Map<String, Credential> names = new HashMap<>();
        for (Credential c : credentials) {
            ids.put(c.id(), c);
            names.put(c.name(), c);
        }
        return new CredentialStore() {
            @Override
            public Optional<Credential> byId(UUID id) {
                return Optional.ofNullable(ids.get(id));
            }

            @Override
            public Optional<Credential> byName(String name) {
                return Optional.ofNullable(names.get(name));
            }
        };
    }

    /**
     * Reads a JSON file {@code {"credentials":[{"id","name","secret","domains":[...],"header"}]}}.
     * Errors name the file and the entry, never the secret.
     */
    static CredentialStore file(Path path) throws IOException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readAllBytes(path));
        } catch (IOException e) {
            // Jackson messages may quote file content (a secret): keep only the location
            throw new IOException("credential file `" + path + "` is not valid JSON");
        }
        JsonNode list = root == null ? null : root.get("credentials");
        if (list == null || !list.isArray()) {
            throw new IOException("credential file `" + path + "` needs a `credentials` array");
        }
        List<Credential> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode n = list.get(i);
            try {
                List<String> domains = new ArrayList<>();
                n.path("domains").forEach(d -> domains.add(d.asText()));
                String name = n.path("name").asText(null);
                UUID id = n.hasNonNull("id") ? UUID.fromString(n.get("id").asText()) : Credential.idFor(name);
                out.add(new Credential(id, name,
                        n.path("secret").asText(null), domains,
                        n.hasNonNull("header") ? n.get("header").asText() : null));
            } catch (RuntimeException e) {
                throw new IOException("credential file `" + path + "`: entry " + i
                        + " needs name, secret, an optional id (uuid), domains and an optional header `Name: value`");
            }
        }
        return of(out);
    }
}
