"""Short EU-style acts written for the grammar tests (not real acts; numbers chosen to look real)."""
from __future__ import annotations

ACT = """12.3.2021
EN
Official Journal of the European Union
REGULATION (EU) 2021/77 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL
of 3 March 2021
on the care of garden birds, and repealing Directive 98/12/EC (Bird Care Regulation)
THE EUROPEAN PARLIAMENT AND THE COUNCIL OF THE EUROPEAN UNION,
Having regard to the Treaty on the Functioning of the European Union, and in particular Article 114 thereof,
Whereas:
(1) Birds need care. Article 3 of Directive 98/12/EC was too narrow.
(2) This Regulation replaces Directive 98/12/EC; the controls in Article 5 should be replaced.
HAVE ADOPTED THIS REGULATION:
CHAPTER I
General provisions
Article 1
Definitions
For the purposes of this Regulation:
(1) ‘keeper’ means a person who feeds birds;
(2) ‘bird table’ means a raised platform;
(3) ‘nest box’ of a keeper means a box for nesting.
Article 2
Duties
1. A keeper shall clean every bird table. Keepers shall keep records.
2. Member States shall ensure that:
(a) nest boxes are checked;
(b) records are kept.
Point (b) of the first subparagraph shall not apply to small keepers.
3. Point (a) of paragraph 2 and Article 2(2)(b) apply as set out in Article 25(6) of Directive 98/12/EC and Article 263 TFEU.
Article 3
Checks
1. Where point (a) of Article 2(2) applies, Article 2(2), first subparagraph, point (b) also applies.
2. Article 5 of Regulation (EU) No 182/2011 and Article 2 of this Regulation apply; the replaced controls in Article 1 remain.
3. Articles 1 and 2 of that Regulation and Article 8(1) of the Charter of Fundamental Rights apply.
4. Point (2) of Article 1 is amended only by the legislator.
5. Article 2(2), points (a) to (b), and points (3) to (1) of Article 1 apply.
Article 4
Amendments to Regulation (EU) No 600/2014
Regulation (EU) No 600/2014 is amended as follows:
(1) Article 27 is amended as follows:
(a) paragraph 3 is replaced by the following:
‘3. A keeper shall comply with Article 5 (‘compliance’);
2. A second quoted paragraph that is not a clause of this act.’;
(b) paragraph 6 is deleted;
(c) in paragraph 8, point (c) is replaced by the following:
‘(c) the requirements in paragraph 5.’;
(2) in Annex I, Section A, point 4, the first subparagraph is replaced by the following:
‘A keeper shall keep records.’;
(3) in Article 80, paragraphs 1 and 2 are deleted;
(4) the following Article is inserted:
‘Article 27a
New duties
A keeper shall report.’;
(5) Article 99 is rewritten in blue ink;
Article 5
Amendment to Directive 2014/65/EU
In Article 6 of Directive 2014/65/EU, the following paragraph is added:
‘6. Keepers shall register.’.
Article 6
Amendment of Directive (EU) 2019/1937
In Part I.B of the Annex to Directive (EU) 2019/1937, the following point is added:
‘(xxi)
Regulation (EU) 2021/77.’.
Article 7
Entry into force
This Regulation shall enter into force on the twentieth day following that of its publication.
This Regulation shall be binding in its entirety and directly applicable in all Member States.
Done at Brussels, 3 March 2021.
For the European Parliament
The President
(1) OJ C 1, 1.1.2020, p. 1.
ANNEX I
LIST OF BIRDS
1. Robins.
2. Wrens.
"""

DELEGATED = """COMMISSION DELEGATED REGULATION (EU) 2022/9
of 1 June 2022
supplementing Regulation (EU) 2021/77 of the European Parliament and of the Council with regard to bird tables
THE EUROPEAN COMMISSION,
Having regard to the Treaty on the Functioning of the European Union,
Having regard to Regulation (EU) 2021/77 of the European Parliament and of the Council of 3 March 2021 on the care of garden birds, and amending Directive 98/12/EC (1), and in particular Article 2(2) thereof,
Whereas:
(1) Bird tables need a height.
HAS ADOPTED THIS REGULATION:
Article 1
Height
A bird table shall be 1 metre high.
Article 2
Entry into force
This Regulation shall enter into force on the twentieth day following that of its publication.
Done at Brussels, 1 June 2022.
"""

UK_NOTES = """The Bird Care (Amendment) Regulations 2019
Article 4
Definitions
1. F1‘competent authority’ means the Bird Authority.
2. F2. . . . . . .
3. A keeper shall keep records.
Textual Amendments
F1 Words in Art. 4(1) substituted (31.12.2020) by S.I. 2019/419, regs. 1(1), 3(2)
F2 Art. 4(2) omitted (31.12.2020) by virtue of S.I. 2019/419, reg. 3(3)
Article 5
Records
A keeper shall keep records for 2 years.
"""

AMENDED = """REGULATION (EU) No 600/2014 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL
of 15 May 2014
on markets in bird food
HAVE ADOPTED THIS REGULATION:
Article 27
Duties of sellers
3. A seller shall keep seeds dry.
6. A seller shall label seeds for every keeper.
8. The Commission shall specify:
(c) the requirements in paragraph 5.
Done at Strasbourg, 15 May 2014.
"""


def regulation(number: str, subject: str, recital: str, body: str) -> str:
    """A regulation as the Official Journal prints it: the header, one recital, then `body` (chapters, articles)."""
    return f"""12.3.2021
EN
Official Journal of the European Union
REGULATION (EU) {number} OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL
of 3 March 2021
on {subject}
THE EUROPEAN PARLIAMENT AND THE COUNCIL OF THE EUROPEAN UNION,
Whereas:
(1) {recital}
HAVE ADOPTED THIS REGULATION:
{body}"""
