// Syntax of PTX ISA 9.0. No embedded actions: isa/ lowers the parse tree.
//
// Rules are kept flat and LL(1) where possible so SLL prediction stays
// cheap; instruction semantics (which modifiers and operands an opcode
// takes) live in the instruction table, not here.
parser grammar PtxParser;

options { tokenVocab = PtxLexer; }

module: moduleItem* EOF;

moduleItem
    : versionDirective
    | targetDirective
    | addressSizeDirective
    | fileDirective
    | sectionDirective
    | pragmaDirective
    | aliasDirective
    | linkage* (functionDecl | declaration SEMI)
    ;

versionDirective: VERSION FLOAT;
targetDirective: TARGET IDENT (COMMA IDENT)*;
addressSizeDirective: ADDRESS_SIZE INT;
fileDirective: FILE INT STRING (COMMA INT COMMA INT)?;
pragmaDirective: PRAGMA STRING (COMMA STRING)* SEMI;
aliasDirective: ALIAS IDENT COMMA IDENT SEMI;

// DWARF sections emitted with -G / -lineinfo: labels and data rows.
sectionDirective: SECTION DOT_NAME LBRACE sectionItem* RBRACE;
sectionItem
    : IDENT COLON                                   # sectionLabel
    | TYPE sectionValue (COMMA sectionValue)* SEMI?  # sectionData
    ;
sectionValue: DOT_NAME ((PLUS | MINUS) expr)? | expr;

linkage: VISIBLE | EXTERN | WEAK | COMMON;

// .entry / .func, either a prototype (';') or a definition.
functionDecl
    : (ENTRY | FUNC) returnParams? IDENT paramList? functionAttribute*
      (functionBody | SEMI)
    ;
returnParams: LPAREN paramDecl (COMMA paramDecl)* RPAREN;
paramList: LPAREN (paramDecl (COMMA paramDecl)*)? RPAREN;
paramDecl: stateSpace declModifier* declarator;

functionAttribute
    : MAXNTID INT (COMMA INT)*
    | REQNTID INT (COMMA INT)*
    | MINNCTAPERSM INT
    | MAXNCTAPERSM INT
    | MAXNREG INT
    | EXPLICITCLUSTER
    | REQNCTAPERCLUSTER INT (COMMA INT)*
    | MAXCLUSTERRANK INT
    | BLOCKSAREGCLUSTERS
    | NORETURN
    | PRAGMA STRING (COMMA STRING)* SEMI
    ;

functionBody: LBRACE statement* RBRACE;

statement
    : IDENT COLON                                          # labelStatement
    | linkage* declaration SEMI                            # declarationStatement
    | guard? opcode=(DOTTED | IDENT) (operand (COMMA operand)*)? SEMI  # instructionStatement
    | LBRACE statement* RBRACE                             # blockStatement
    | LOC INT INT INT locAttribute*                        # locStatement
    | PRAGMA STRING (COMMA STRING)* SEMI                   # pragmaStatement
    | (BRANCHTARGETS | CALLTARGETS) IDENT (COMMA IDENT)* SEMI  # targetListStatement
    | CALLPROTOTYPE paramList? IDENT paramList? NORETURN? SEMI   # callPrototypeStatement
    | fileDirective                                        # fileStatement
    ;

locAttribute: COMMA IDENT (IDENT | INT)*;

// Variable declarations in every state space.
declaration: stateSpace declModifier* declarator (COMMA declarator)*;
stateSpace: REG | SREG | PARAM | LOCAL | SHARED | GLOBAL | CONST | TEX;
declModifier
    : ALIGN INT
    | TYPE
    | VECTOR
    | PTR
    | LOCAL | SHARED | GLOBAL | CONST
    | ATTRIBUTE LPAREN DOT_NAME (LPAREN expr (COMMA expr)* RPAREN)? RPAREN
    ;
declarator: IDENT (LT INT GT)? arrayDimension* (EQUALS initializer)?;
arrayDimension: LBRACK expr? RBRACK;
initializer
    : LBRACE initializer (COMMA initializer)* RBRACE
    | GENERIC LPAREN expr RPAREN ((PLUS | MINUS) expr)?
    | LBRACE IDENT EQUALS (IDENT | INT) (COMMA IDENT EQUALS (IDENT | INT))* RBRACE  // sampler fields
    | MASK LPAREN initializer RPAREN
    | INT LPAREN initializer RPAREN
    | expr
    ;

// Instructions: an optional guard, the opcode token with its dotted
// modifiers, and operands. The common operand shapes (a register, an
// immediate, `[%rd+8]`) have flat alternatives ahead of the general
// expression, so most operands cost one parse-tree node.
guard: AT BANG? IDENT;

operand
    : value=(IDENT | DOTTED) (PIPE IDENT)?            # nameOperand
    | MINUS? (INT | HEX_FLOAT | FLOAT)                # literalOperand
    | LBRACK IDENT ((PLUS | MINUS) MINUS? INT)? RBRACK  # simpleAddressOperand
    | LBRACE operand (COMMA operand)* RBRACE          # vectorOperand
    | LBRACK operand (COMMA operand)* RBRACK          # addressOperand
    | LPAREN (operand (COMMA operand)*)? RPAREN       # listOperand
    | BANG name                                       # notOperand
    | expr (PIPE name)?                               # exprOperand
    ;

// Constant and address expressions, C precedence. A bare name is a
// register, a variable, a label or a function.
expr
    : primary                                         # primaryExpr
    | (MINUS | BANG | TILDE | PLUS) expr              # unaryExpr
    | expr (STAR | SLASH | PERCENT) expr              # mulExpr
    | expr (PLUS | MINUS) expr                        # addExpr
    | expr (SHL | SHR) expr                           # shiftExpr
    | expr (LT | GT | LE | GE) expr                   # relationalExpr
    | expr (EQEQ | NE) expr                           # equalityExpr
    | expr AMP expr                                   # andExpr
    | expr CARET expr                                 # xorExpr
    | expr PIPE expr                                  # orExpr
    | expr ANDAND expr                                # logicalAndExpr
    | expr OROR expr                                  # logicalOrExpr
    | <assoc = right> expr QUESTION expr COLON expr   # conditionalExpr
    ;
primary
    : name (LBRACK expr RBRACK)?
    | INT
    | FLOAT
    | HEX_FLOAT
    | LPAREN expr RPAREN
    ;
name: IDENT | DOTTED | GENERIC | MASK;
