package dev.stockade.api.kernel.identity;

import dev.stockade.api.kernel.audit.Actor;
import java.util.Set;
import java.util.UUID;

/** Who is behind a request's bearer token: one of six kinds, decided once by {@link Authenticator}. */
public sealed interface Identity extends Actor {

    /** The kind as {@code GET /v1/auth/me} and the audit trail name it. */
    String type();

    /** A stable id for the audit trail's actor. */
    String actorId();

    /** The installation owner's API token, written to the data directory on first start. */
    record Owner(UUID tokenId) implements Identity {
        public String type() {
            return "installation-owner";
        }

        public String actorId() {
            return tokenId.toString();
        }
    }

    /** A person signed in through the identity provider. */
    record User(UUID userId, String email, boolean emailVerified, String name, Set<String> roles) implements Identity {
        public String type() {
            return "user";
        }

        public String actorId() {
            return userId.toString();
        }
    }

    /** An organization's API token. */
    record ApiToken(UUID tokenId, UUID orgId, String name) implements Identity {
        public String type() {
            return "api-token";
        }

        public String actorId() {
            return tokenId.toString();
        }
    }

    /** A sandbox's token, pinned to its project. */
    record SandboxToken(UUID tokenId, UUID projectId, UUID orgId) implements Identity {
        public String type() {
            return "sandbox-token";
        }

        public String actorId() {
            return tokenId.toString();
        }
    }

    /** A cluster JWT issued to a sandbox for its kubeconfig (15 minutes), signed by its project's key. */
    record ClusterToken(String subject, UUID projectId, UUID orgId) implements Identity {
        public String type() {
            return "cluster-token";
        }

        public String actorId() {
            return subject;
        }
    }

    /** A separate egress proxy replica's token: reads the proxy feed and nothing else. */
    record ProxyToken(UUID tokenId, String name) implements Identity {
        public String type() {
            return "proxy-token";
        }

        public String actorId() {
            return tokenId.toString();
        }
    }
}
