/**
 * Passwords refused at signup because attackers try them first (a short list drawn from the
 * most common leaked passwords; compared case-insensitively).
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  `123456 123456789 12345678 password qwerty123 qwerty1 111111 12345 secret 123123 1234567890 1234567 000000
qwerty abc123 password1 iloveyou 1q2w3e4r 123321 dragon monkey letmein football baseball welcome admin
admin123 login princess solo master sunshine shadow ashley michael superman batman trustno1 passw0rd
password123 password12 password! p@ssword p@ssw0rd qwertyuiop asdfghjkl zxcvbnm 1qaz2wsx zaq12wsx
qazwsx 654321 666666 7777777 888888 987654321 121212 112233 123qwe qwe123 1q2w3e 1q2w3e4r5t
q1w2e3r4 aa123456 abcd1234 abc12345 a1b2c3d4 charlie donald freedom whatever hello123 hellohello
starwars jordan23 harley ranger hunter2 hunter buster soccer hockey killer george jessica pepper
daniel andrew joshua matthew thomas jennifer michelle nicole maggie summer ginger cookie chelsea
liverpool arsenal computer internet samsung google yahoo facebook linkedin iloveu lovely loveme
flower family mustang corvette ferrari mercedes jaguar tigger cheese chocolate banana orange
pokemon naruto minecraft fortnite gaming gamer mynoob changeme default guest root toor test test123
testing testtest user user123 demo demo123 access access14 temp temp123 pass pass123 pass1234
passpass secret123 security welcome1 welcome123 letmein1 iloveyou1 monkey123 dragon123 qwerty12
qwerty1234 asdf1234 asdfasdf zxcv1234 11111111 22222222 00000000 12341234 123454321 88888888
99999999 55555555 12121212 131313 696969 159753 147258369 741852963 963852741 789456123
abcdef abcdefg abcdefgh abcdefg1 aaaaaa aaaaaaaa azerty azerty123 qwertz 1234qwer qwer1234
trustno1! football1 baseball1 superman1 batman123 princess1 sunshine1 shadow123 master123
michael1 jordan123 liverpool1 chelsea1 blink182 metallica nirvana slipknot eminem rockyou
whatever1 nothing anything something everything friends lovers forever always sweety sweetheart
angel angels baby babygirl babyboy butterfly purple yellow silver golden diamond crystal
spiderman ironman captain pirate ninja samurai warrior knight wizard matrix phoenix`
    .split(/\s+/)
    .filter(Boolean),
);
