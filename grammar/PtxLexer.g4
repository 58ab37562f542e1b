// Tokens of PTX ISA 9.0.
//
// This lexer is the reference definition of the token set. The fast path
// (grammar/fast_lexer.cpp) produces exactly the same token types; a test
// compares the two on the corpus. Instruction opcodes and their modifiers
// are lexed as one DOTTED token ("ld.global.v4.f32") and split in lowering,
// which keeps the parser's decisions LL(1) almost everywhere.
lexer grammar PtxLexer;

// Module and function directives.
VERSION: '.version';
TARGET: '.target';
ADDRESS_SIZE: '.address_size';
ENTRY: '.entry';
FUNC: '.func';
VISIBLE: '.visible';
EXTERN: '.extern';
WEAK: '.weak';
COMMON: '.common';
NORETURN: '.noreturn';
ALIAS: '.alias';
FILE: '.file';
LOC: '.loc';
SECTION: '.section';
PRAGMA: '.pragma';
MAXNTID: '.maxntid';
REQNTID: '.reqntid';
MINNCTAPERSM: '.minnctapersm';
MAXNCTAPERSM: '.maxnctapersm';
MAXNREG: '.maxnreg';
EXPLICITCLUSTER: '.explicitcluster';
REQNCTAPERCLUSTER: '.reqnctapercluster';
MAXCLUSTERRANK: '.maxclusterrank';
BLOCKSAREGCLUSTERS: '.blocksareclusters';
CALLPROTOTYPE: '.callprototype';
CALLTARGETS: '.calltargets';
BRANCHTARGETS: '.branchtargets';

// State spaces of declarations.
REG: '.reg';
SREG: '.sreg';
PARAM: '.param';
LOCAL: '.local';
SHARED: '.shared';
GLOBAL: '.global';
CONST: '.const';
TEX: '.tex';

ALIGN: '.align';
ATTRIBUTE: '.attribute';
PTR: '.ptr';

// Fundamental, opaque and vector types.
TYPE
    : '.b8' | '.b16' | '.b32' | '.b64' | '.b128'
    | '.u8' | '.u16' | '.u32' | '.u64'
    | '.s8' | '.s16' | '.s32' | '.s64'
    | '.f16' | '.f16x2' | '.bf16' | '.bf16x2' | '.tf32' | '.f32' | '.f64'
    | '.e4m3' | '.e5m2' | '.e4m3x2' | '.e5m2x2' | '.e2m1x2' | '.e2m3x2' | '.e3m2x2' | '.ue8m0x2'
    | '.pred'
    | '.texref' | '.samplerref' | '.surfref'
    ;
VECTOR: '.v2' | '.v4' | '.v8';

GENERIC: 'generic';
MASK: 'mask';

// Any other dotted word: section names, unknown directives.
DOT_NAME: '.' NAME_START NAME_PART ('::' NAME_PART)*;

// An identifier with one or more dotted parts: opcodes with modifiers
// ("cp.async.bulk.shared::cluster.global"), special registers ("%tid.x")
// and vector-variable elements ("v.x").
DOTTED: IDENT_CORE ('.' NAME_PART ('::' NAME_PART)*)+;
IDENT: IDENT_CORE;

HEX_FLOAT: '0' [fF] HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT
         | '0' [dD] HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT
                    HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT
         ;
FLOAT: DEC_DIGIT+ '.' DEC_DIGIT* EXPONENT? | '.' DEC_DIGIT+ EXPONENT? | DEC_DIGIT+ EXPONENT;
INT: ( '0' [xX] HEX_DIGIT+ | '0' [bB] [01]+ | DEC_DIGIT+ ) [uU]?;
STRING: '"' (~["\\\r\n] | '\\' .)* '"';

SEMI: ';';
COMMA: ',';
COLON: ':';
LBRACE: '{';
RBRACE: '}';
LPAREN: '(';
RPAREN: ')';
LBRACK: '[';
RBRACK: ']';
LT: '<';
GT: '>';
AT: '@';
BANG: '!';
PLUS: '+';
MINUS: '-';
STAR: '*';
SLASH: '/';
PERCENT: '%';
AMP: '&';
PIPE: '|';
CARET: '^';
TILDE: '~';
EQUALS: '=';
SHL: '<<';
SHR: '>>';
LE: '<=';
GE: '>=';
EQEQ: '==';
NE: '!=';
ANDAND: '&&';
OROR: '||';
QUESTION: '?';

LINE_COMMENT: '//' ~[\r\n]* -> skip;
BLOCK_COMMENT: '/*' .*? '*/' -> skip;
WS: [ \t\r\n]+ -> skip;

// Anything else is a lexical error, reported by the parser with its location.
ERROR_CHAR: .;

fragment IDENT_CORE: [a-zA-Z_] NAME_PART? | [$%] NAME_PART;
fragment NAME_START: [a-zA-Z_$];
fragment NAME_PART: [a-zA-Z0-9_$]+;
fragment DEC_DIGIT: [0-9];
fragment HEX_DIGIT: [0-9a-fA-F];
fragment EXPONENT: [eE] [+-]? DEC_DIGIT+;
