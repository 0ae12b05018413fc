package dev.stockade.cli.rest;

/** The roles of organization and project members (case-insensitive on the command line). */
enum Role { ADMIN, MEMBER }
