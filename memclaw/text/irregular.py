"""English irregular forms folded to their base word: "bought" is "buy", "children" "child".

"When did Maya go to Porto?" is answered by "I went to Porto on Friday", and
"What did Tom buy?" by "I bought a kayak". The Snowball stemmer joins regular
forms (painted, painting, paints: paint) but cannot know that "went" is "go",
so index and query both fold the irregular past tenses, past participles and
plurals listed here before stemming, in English blocks only.

Left out on purpose: forms that are as often common words of their own ("left"
as in on the left, "bit", "bound", "lay", "rose", "lives" as in she lives,
"leaves", "ground", "wound", "bore", "lit", "sat"), forms of the stopwords
("was", "had", "did", "done"; "men", which is Swedish "but"), "came" and "said"
(folding them cost a question of the conversation benchmark's tuning half), and
adjectives ("better" is not "good" to a reader looking for a good one).
"""

from __future__ import annotations


def _table(text: str) -> dict[str, str]:
    """``base: form form ...`` lines as a form -> base mapping."""
    out: dict[str, str] = {}
    for line in text.strip().splitlines():
        base, forms = line.split(":")
        for form in forms.split():
            out[form] = base.strip()
    return out


_FORMS = _table("""
    arise: arose arisen
    awake: awoke awoken
    become: became
    begin: began begun
    bend: bent
    bite: bitten
    bleed: bled
    blow: blew blown
    break: broke broken
    breed: bred
    bring: brought
    build: built
    burn: burnt
    buy: bought
    catch: caught
    choose: chose chosen
    cling: clung
    creep: crept
    dig: dug
    draw: drew drawn
    dream: dreamt
    drink: drank drunk
    drive: drove driven
    eat: ate eaten
    fall: fell fallen
    feed: fed
    feel: felt
    fight: fought
    find: found
    flee: fled
    fly: flew flown
    forbid: forbade forbidden
    forget: forgot forgotten
    forgive: forgave forgiven
    freeze: froze frozen
    get: got gotten
    give: gave given
    go: went gone
    grow: grew grown
    hang: hung
    hear: heard
    hide: hid hidden
    hold: held
    keep: kept
    kneel: knelt
    know: knew known
    lead: led
    lean: leant
    leap: leapt
    learn: learnt
    lend: lent
    lose: lost
    make: made
    mean: meant
    meet: met
    overcome: overcame
    pay: paid
    prove: proven
    ride: rode ridden
    ring: rang rung
    rise: risen
    run: ran
    see: saw seen
    seek: sought
    sell: sold
    send: sent
    sew: sewn
    shake: shook shaken
    shine: shone
    shoot: shot
    show: shown
    shrink: shrank shrunk
    sing: sang sung
    sink: sank sunk
    sleep: slept
    slide: slid
    speak: spoke spoken
    speed: sped
    spend: spent
    spill: spilt
    spin: spun
    spit: spat
    stand: stood
    steal: stole stolen
    stick: stuck
    sting: stung
    stink: stank stunk
    strike: struck
    strive: strove striven
    swear: swore sworn
    sweep: swept
    swim: swam swum
    swing: swung
    take: took taken
    teach: taught
    tear: tore torn
    tell: told
    think: thought
    throw: threw thrown
    understand: understood
    wake: woke woken
    wear: wore worn
    weave: wove woven
    weep: wept
    win: won
    withdraw: withdrew withdrawn
    write: wrote written
    child: children
    foot: feet
    goose: geese
    mouse: mice
    person: people
    tooth: teeth
    woman: women
    calf: calves
    half: halves
    knife: knives
    loaf: loaves
    scarf: scarves
    shelf: shelves
    thief: thieves
    wife: wives
    wolf: wolves
""")


def base_form(word: str) -> str:
    """``word`` (lower-case English) as its base word when it is a listed irregular form."""
    return _FORMS.get(word, word)
