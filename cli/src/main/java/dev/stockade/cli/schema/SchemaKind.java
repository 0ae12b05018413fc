package dev.stockade.cli.schema;

/** The files Stockade publishes a JSON Schema for, each under {@code docs/schema/} and at its {@code $id}. */
public enum SchemaKind {
    /** A policy document (spec "Policy"). */
    POLICY("policy", "policy.schema.json"),
    /** One suite (YAML document) of a policy test file (FORMAT.md). */
    TEST("test", "policy-test.schema.json"),
    /** A sandbox file for {@code sandbox create -f} (spec "Sandbox"). */
    SANDBOX("sandbox", "sandbox.schema.json");

    /** Where the published schemas live; the {@code $id} of each is this plus its file name. */
    public static final String BASE = "https://stockade.dev/schemas/";

    private final String word;
    private final String fileName;

    SchemaKind(String word, String fileName) {
        this.word = word;
        this.fileName = fileName;
    }

    /** The word that names it on the command line ({@code stockade schema policy}). */
    public String word() {
        return word;
    }

    /** Its file name under {@code docs/schema/}. */
    public String fileName() {
        return fileName;
    }

    /** Its {@code $id}. */
    public String id() {
        return BASE + fileName;
    }
}
