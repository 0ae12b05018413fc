/*
 * The pattern languages of Stockade policies: domain patterns, path globs, operation/field name globs
 * and argument value globs. One grammar tokenises all four; what each token means (and which tokens a
 * kind refuses) is decided per kind by GlobCompiler, so the offsets of errors always come from here.
 *
 * The lexer accepts every character (CHAR : .), so the parser never meets an unknown token: syntax
 * errors of a kind are semantic and carry the offset of the offending token.
 */
grammar Glob;

glob
    : piece* EOF
    ;

piece
    : DOUBLE_STAR   # doubleStar
    | STAR          # star
    | ESCAPED       # escaped
    | BACKSLASH     # backslash
    | DOT           # dot
    | SLASH         # slash
    | CHAR          # literal
    ;

// Longest match first: '**' wins over '*', '\*' over '\'. '***' lexes as '**' '*'.
DOUBLE_STAR : '**' ;
STAR        : '*' ;
ESCAPED     : '\\' [*\\] ;
BACKSLASH   : '\\' ;
DOT         : '.' ;
SLASH       : '/' ;
CHAR        : . ;
