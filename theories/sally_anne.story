# The Sally-Anne test (Baron-Cohen, Leslie & Frith 1985), in kop's story syntax.
#   kop story theories/sally_anne.story --trace
# A question is asked where it stands: after the events above it.  "= c" is the expected answer.
Sally, Anne enter room
marble in basket
Sally exits room
Anne moves marble to box
? initially marble = basket
? marble = box
? Sally: marble = basket            # first order: Sally's false belief
? Anne: marble = box
? Anne, Sally: marble = basket      # second order: Anne knows Sally did not see the move
? Sally, Anne: marble = basket      # Sally thinks Anne thinks it is where Sally left it
Sally enter room                    # back in the room, Sally sees where the marble is
? Sally: marble = box
? Anne, Sally: marble = box
