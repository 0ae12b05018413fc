package dev.stockade.policy.model;

/** How bad a problem is: an error makes a document invalid, a warning does not. */
public enum Severity {
    /** The document is invalid. */
    ERROR,
    /** Worth a look; the document stays valid. */
    WARNING
}
